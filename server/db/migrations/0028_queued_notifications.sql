ALTER TABLE "donation_notifications" ALTER COLUMN "subject" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_notifications" ALTER COLUMN "html" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_notifications" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD COLUMN "queued" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "donation_notifications_queued_idx" ON "donation_notifications" USING btree ("id") WHERE "donation_notifications"."queued";--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD CONSTRAINT "donation_notifications_rendered" CHECK ("donation_notifications"."queued" or ("donation_notifications"."subject" is not null and "donation_notifications"."html" is not null and "donation_notifications"."text" is not null));