CREATE TABLE "email_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"status_id" integer NOT NULL,
	"version" integer NOT NULL,
	"live" boolean DEFAULT false NOT NULL,
	"subject1" text DEFAULT '' NOT NULL,
	"subject2" text DEFAULT '' NOT NULL,
	"subject3" text DEFAULT '' NOT NULL,
	"preheader1" text DEFAULT '' NOT NULL,
	"preheader2" text DEFAULT '' NOT NULL,
	"preheader3" text DEFAULT '' NOT NULL,
	"header1" text DEFAULT '' NOT NULL,
	"header2" text DEFAULT '' NOT NULL,
	"header3" text DEFAULT '' NOT NULL,
	"greeting" text DEFAULT '' NOT NULL,
	"paragraph_one_1" text DEFAULT '' NOT NULL,
	"paragraph_one_2" text DEFAULT '' NOT NULL,
	"paragraph_one_3" text DEFAULT '' NOT NULL,
	"paragraph_two" text DEFAULT '' NOT NULL,
	"paragraph_three" text DEFAULT '' NOT NULL,
	"salutation" text DEFAULT '' NOT NULL,
	"step_one_title" text DEFAULT '' NOT NULL,
	"step_one_text" text DEFAULT '' NOT NULL,
	"step_one_note" text DEFAULT '' NOT NULL,
	"step_one_btn" text DEFAULT '' NOT NULL,
	"step_two_title" text DEFAULT '' NOT NULL,
	"step_two_text" text DEFAULT '' NOT NULL,
	"step_two_note" text DEFAULT '' NOT NULL,
	"step_two_btn" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_templates_version_range" CHECK ("email_templates"."version" >= 0 and "email_templates"."version" < 8),
	CONSTRAINT "email_templates_default_live" CHECK ("email_templates"."version" > 0 or "email_templates"."live")
);
--> statement-breakpoint
CREATE TABLE "email_unsubscribes" (
	"organization_id" integer NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_unsubscribes_organization_id_email_pk" PRIMARY KEY("organization_id","email")
);
--> statement-breakpoint
CREATE TABLE "scheduled_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"donation_id" integer,
	"organization_id" integer,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduled_jobs_status_values" CHECK ("scheduled_jobs"."status" in ('pending', 'done', 'cancelled', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "donation_status_history" DROP CONSTRAINT "donation_status_history_source_values";--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD COLUMN "template_id" integer;--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD COLUMN "stage" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD COLUMN "kind" text DEFAULT 'initial' NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD COLUMN "confirm_clicked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD COLUMN "decline_clicked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_unsubscribes" ADD CONSTRAINT "email_unsubscribes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_jobs" ADD CONSTRAINT "scheduled_jobs_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_jobs" ADD CONSTRAINT "scheduled_jobs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_org_status_version_unique" ON "email_templates" USING btree ("organization_id","status_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_jobs_key_unique" ON "scheduled_jobs" USING btree ("key");--> statement-breakpoint
CREATE INDEX "scheduled_jobs_due_idx" ON "scheduled_jobs" USING btree ("run_at") WHERE "scheduled_jobs"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "scheduled_jobs_donation_idx" ON "scheduled_jobs" USING btree ("donation_id");--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD CONSTRAINT "donation_notifications_template_id_email_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."email_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donation_notifications_template_idx" ON "donation_notifications" USING btree ("template_id");--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD CONSTRAINT "donation_notifications_kind_values" CHECK ("donation_notifications"."kind" in ('initial', 'reminder', 'deadline', 'expire'));--> statement-breakpoint
ALTER TABLE "donation_status_history" ADD CONSTRAINT "donation_status_history_source_values" CHECK ("donation_status_history"."source" in ('staff', 'donor', 'public', 'api', 'system'));