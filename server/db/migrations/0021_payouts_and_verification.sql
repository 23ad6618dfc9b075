CREATE TABLE "payout_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"vendor" text,
	"report_hash" text NOT NULL,
	"user_id" integer,
	"lines" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"line_hash" text NOT NULL,
	"line" integer NOT NULL,
	"donor_name" text,
	"donor_email" text,
	"company_name" text,
	"paid_cents" integer NOT NULL,
	"paid_at" date NOT NULL,
	"donation_id" integer,
	"outcome" text NOT NULL,
	"score" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_lines_outcome_values" CHECK ("payout_lines"."outcome" in ('matched', 'picked', 'created', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "donation_status_history" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "paid_cents" integer;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "paid_at" date;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batches_org_hash_unique" ON "payout_batches" USING btree ("organization_id","report_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lines_org_hash_unique" ON "payout_lines" USING btree ("organization_id","line_hash");--> statement-breakpoint
CREATE INDEX "payout_lines_batch_idx" ON "payout_lines" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "donations_org_paid_idx" ON "donations" USING btree ("organization_id","donated_at") WHERE "donations"."paid_cents" is not null;--> statement-breakpoint
CREATE INDEX "donors_org_name_idx" ON "donors" USING btree ("organization_id",lower("name"));