CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_usage_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"bill_id" integer NOT NULL,
	"donation_id" integer,
	"kind" text NOT NULL,
	"corrects_id" integer,
	"identifier" text NOT NULL,
	"value_cents" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"reported_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_usage_reports_kind_values" CHECK ("stripe_usage_reports"."kind" in ('charge', 'refund', 'release')),
	CONSTRAINT "stripe_usage_reports_status_values" CHECK ("stripe_usage_reports"."status" in ('pending', 'reported', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "subscription_status" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "subscription_status_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stripe_usage_reports" ADD CONSTRAINT "stripe_usage_reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_usage_reports" ADD CONSTRAINT "stripe_usage_reports_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_usage_reports" ADD CONSTRAINT "stripe_usage_reports_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_usage_reports" ADD CONSTRAINT "stripe_usage_reports_corrects_id_stripe_usage_reports_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."stripe_usage_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stripe_usage_reports_identifier_unique" ON "stripe_usage_reports" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "stripe_usage_reports_due_idx" ON "stripe_usage_reports" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "stripe_usage_reports_bill_idx" ON "stripe_usage_reports" USING btree ("bill_id");--> statement-breakpoint
CREATE INDEX "stripe_usage_reports_donation_idx" ON "stripe_usage_reports" USING btree ("donation_id");