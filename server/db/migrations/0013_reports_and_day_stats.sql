CREATE TABLE "donation_day_stats" (
	"organization_id" integer NOT NULL,
	"day" date NOT NULL,
	"status_id" integer NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"matched_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "donation_day_stats_organization_id_day_status_id_pk" PRIMARY KEY("organization_id","day","status_id")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"name" text NOT NULL,
	"scope" text DEFAULT 'personal' NOT NULL,
	"columns" jsonb NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort_field" text DEFAULT 'donations.id' NOT NULL,
	"ascending" boolean DEFAULT true NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_scope_values" CHECK ("reports"."scope" in ('personal', 'organization', 'full_org'))
);
--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_org_idx" ON "reports" USING btree ("organization_id","id");