ALTER TABLE "one_time_tokens" DROP CONSTRAINT "one_time_tokens_purpose_values";--> statement-breakpoint
ALTER TABLE "one_time_tokens" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_status_history" ADD COLUMN "source" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_status_history" ADD CONSTRAINT "donation_status_history_source_values" CHECK ("donation_status_history"."source" in ('staff', 'donor', 'public'));--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_user_required" CHECK ("one_time_tokens"."user_id" is not null or "one_time_tokens"."purpose" = 'donor_link');--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_purpose_values" CHECK ("one_time_tokens"."purpose" in ('magic_link', 'password_reset', 'set_password', 'donor_link'));