ALTER TABLE "donation_notifications" ADD COLUMN "request_id" text DEFAULT nullif(current_setting('twofold.request_id', true), '');--> statement-breakpoint
ALTER TABLE "employer_screenings" ADD COLUMN "request_id" text DEFAULT nullif(current_setting('twofold.request_id', true), '');--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "request_id" text DEFAULT nullif(current_setting('twofold.request_id', true), '');--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "request_id" text DEFAULT nullif(current_setting('twofold.request_id', true), '');