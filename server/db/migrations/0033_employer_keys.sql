ALTER TABLE "companies" ADD COLUMN "name_key" text GENERATED ALWAYS AS (employer_key(name)) STORED;--> statement-breakpoint
ALTER TABLE "company_aliases" ADD COLUMN "alias_key" text GENERATED ALWAYS AS (employer_key(alias)) STORED;--> statement-breakpoint
CREATE INDEX "companies_name_key_idx" ON "companies" USING btree ("name_key");--> statement-breakpoint
CREATE INDEX "companies_name_key_trgm_idx" ON "companies" USING gin ("name_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "company_aliases_alias_key_idx" ON "company_aliases" USING btree ("alias_key");--> statement-breakpoint
CREATE INDEX "company_aliases_alias_key_trgm_idx" ON "company_aliases" USING gin ("alias_key" gin_trgm_ops);