CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"min_cents" integer DEFAULT 0 NOT NULL,
	"max_cents" integer DEFAULT 0 NOT NULL,
	"match_ratio" text,
	"group_submit" boolean DEFAULT false NOT NULL,
	"bill_eligible" boolean DEFAULT false NOT NULL,
	"bill_processed" boolean DEFAULT false NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_dates_order" CHECK ("campaigns"."end_date" >= "campaigns"."start_date"),
	CONSTRAINT "campaigns_amounts_nonnegative" CHECK ("campaigns"."min_cents" >= 0 and "campaigns"."max_cents" >= 0),
	CONSTRAINT "campaigns_min_within_max" CHECK ("campaigns"."max_cents" = 0 or "campaigns"."min_cents" <= "campaigns"."max_cents")
);
--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "campaign_id" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaigns_org_company_idx" ON "campaigns" USING btree ("organization_id","company_id","start_date");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donations_campaign_idx" ON "donations" USING btree ("campaign_id") WHERE "donations"."campaign_id" is not null;