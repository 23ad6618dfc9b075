CREATE TABLE "company_aliases" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"alias" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_domains" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_domains_domain_lowercase" CHECK ("company_domains"."domain" = lower("company_domains"."domain"))
);
--> statement-breakpoint
CREATE TABLE "donation_employer_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"donation_id" integer NOT NULL,
	"kind" text NOT NULL,
	"company_id" integer,
	"method" text,
	"confidence" integer,
	"reason" text,
	"email_from" text,
	"email_to" text,
	"user_id" integer,
	"source" text DEFAULT 'staff' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "donation_employer_events_kind_values" CHECK ("donation_employer_events"."kind" in ('identified', 'email_corrected', 'accepted', 'corrected', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "employer_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"donation_id" integer NOT NULL,
	"screening_id" integer,
	"company_id" integer NOT NULL,
	"method" text NOT NULL,
	"confidence" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employer_reviews_status_values" CHECK ("employer_reviews"."status" in ('pending', 'accepted', 'corrected', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "employer_screenings" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"applied" integer DEFAULT 0 NOT NULL,
	"to_review" integer DEFAULT 0 NOT NULL,
	"last_donation_id" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "employer_screenings_status_values" CHECK ("employer_screenings"."status" in ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "employer_method" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "employer_confidence" integer;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "employer_reason" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "employer_threshold" integer DEFAULT 80 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "correct_email_typos" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "company_aliases" ADD CONSTRAINT "company_aliases_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_domains" ADD CONSTRAINT "company_domains_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_employer_events" ADD CONSTRAINT "donation_employer_events_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_employer_events" ADD CONSTRAINT "donation_employer_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_employer_events" ADD CONSTRAINT "donation_employer_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_reviews" ADD CONSTRAINT "employer_reviews_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_reviews" ADD CONSTRAINT "employer_reviews_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_reviews" ADD CONSTRAINT "employer_reviews_screening_id_employer_screenings_id_fk" FOREIGN KEY ("screening_id") REFERENCES "public"."employer_screenings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_reviews" ADD CONSTRAINT "employer_reviews_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_reviews" ADD CONSTRAINT "employer_reviews_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_screenings" ADD CONSTRAINT "employer_screenings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_screenings" ADD CONSTRAINT "employer_screenings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "company_aliases_company_alias_unique" ON "company_aliases" USING btree ("company_id",lower("alias"));--> statement-breakpoint
CREATE UNIQUE INDEX "company_domains_domain_unique" ON "company_domains" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "company_domains_company_idx" ON "company_domains" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "donation_employer_events_donation_idx" ON "donation_employer_events" USING btree ("donation_id","at");--> statement-breakpoint
CREATE INDEX "employer_reviews_org_status_idx" ON "employer_reviews" USING btree ("organization_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "employer_reviews_pending_unique" ON "employer_reviews" USING btree ("donation_id") WHERE "employer_reviews"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "employer_screenings_org_idx" ON "employer_screenings" USING btree ("organization_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "employer_screenings_open_idx" ON "employer_screenings" USING btree ("id") WHERE "employer_screenings"."status" in ('queued', 'running');--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_parent_id_companies_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "companies_parent_idx" ON "companies" USING btree ("parent_id") WHERE "companies"."parent_id" is not null;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_not_own_parent" CHECK ("companies"."parent_id" is null or "companies"."parent_id" <> "companies"."id");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_employer_method_values" CHECK ("donations"."employer_method" is null or "donations"."employer_method" in ('domain', 'name', 'alias', 'history', 'person'));--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_employer_threshold_range" CHECK ("organizations"."employer_threshold" between 50 and 100);