CREATE TABLE "email_schedule_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"donation_id" integer NOT NULL,
	"job_id" integer NOT NULL,
	"action" text NOT NULL,
	"kind" text NOT NULL,
	"stage" integer,
	"user_id" integer,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "email_schedule_actions_action_values" CHECK ("email_schedule_actions"."action" in ('send_now', 'skip'))
);
--> statement-breakpoint
ALTER TABLE "email_schedule_actions" ADD CONSTRAINT "email_schedule_actions_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_schedule_actions" ADD CONSTRAINT "email_schedule_actions_job_id_scheduled_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."scheduled_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_schedule_actions" ADD CONSTRAINT "email_schedule_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_schedule_actions_job_unique" ON "email_schedule_actions" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "email_schedule_actions_donation_idx" ON "email_schedule_actions" USING btree ("donation_id","at");