CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"match_method" text,
	"guide" text,
	"url" text,
	"verify" text,
	"program" text DEFAULT 'matching' NOT NULL,
	"minimum_match_cents" integer,
	"maximum_match_cents" integer,
	"match_ratio" text DEFAULT '1' NOT NULL,
	"deadline_rule" text DEFAULT 'none' NOT NULL,
	"deadline_days" integer,
	"csr_vendor" text,
	"excluded_organization_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "companies_match_method_values" CHECK ("companies"."match_method" is null or "companies"."match_method" in ('form', 'mail', 'esign', 'paper', 'contact', 'csr')),
	CONSTRAINT "companies_verify_values" CHECK ("companies"."verify" is null or "companies"."verify" in ('both', 'email', 'phone')),
	CONSTRAINT "companies_program_values" CHECK ("companies"."program" in ('matching', 'none', 'incomplete', 'company-site-only')),
	CONSTRAINT "companies_deadline_rule_values" CHECK ("companies"."deadline_rule" in ('none', 'days-after-gift', 'year-end', 'next-year-end'))
);
--> statement-breakpoint
CREATE TABLE "donation_status_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"donation_id" integer NOT NULL,
	"from_status_id" integer,
	"to_status_id" integer NOT NULL,
	"user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "donations" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"donor_id" integer,
	"company_id" integer,
	"company_name" text,
	"amount_cents" integer NOT NULL,
	"matched_cents" integer DEFAULT 0 NOT NULL,
	"donated_at" timestamp with time zone NOT NULL,
	"transaction_id" text,
	"status_id" integer NOT NULL,
	"custom" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"recurring_id" text,
	"inert" integer DEFAULT 0 NOT NULL,
	"silenced" boolean DEFAULT false NOT NULL,
	"refunded_bill_id" integer,
	"eligible_bill_id" integer,
	"processed_bill_id" integer,
	"adobe_sign_signing_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "donations_amount_nonnegative" CHECK ("donations"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "donors" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text,
	"email" text,
	"phone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "donation_status_history" ADD CONSTRAINT "donation_status_history_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_status_history" ADD CONSTRAINT "donation_status_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_donor_id_donors_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."donors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donors" ADD CONSTRAINT "donors_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_name_lower_unique" ON "companies" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "donation_status_history_donation_idx" ON "donation_status_history" USING btree ("donation_id","at");--> statement-breakpoint
CREATE INDEX "donations_org_donated_idx" ON "donations" USING btree ("organization_id","donated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "donations_org_status_idx" ON "donations" USING btree ("organization_id","status_id");--> statement-breakpoint
CREATE INDEX "donations_donor_idx" ON "donations" USING btree ("donor_id");--> statement-breakpoint
CREATE INDEX "donations_company_idx" ON "donations" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "donations_org_transaction_unique" ON "donations" USING btree ("organization_id","transaction_id") WHERE "donations"."transaction_id" is not null;--> statement-breakpoint
CREATE INDEX "donors_org_email_idx" ON "donors" USING btree ("organization_id","email");