CREATE TABLE "donation_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"donation_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"status_id" integer NOT NULL,
	"to_email" text NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"outbox_id" integer,
	"open_token_hash" text NOT NULL,
	"first_open" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD CONSTRAINT "donation_notifications_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD CONSTRAINT "donation_notifications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD CONSTRAINT "donation_notifications_outbox_id_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donation_notifications_donation_idx" ON "donation_notifications" USING btree ("donation_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "donation_notifications_recipient_idx" ON "donation_notifications" USING btree ("organization_id","to_email","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "donation_notifications_open_token_unique" ON "donation_notifications" USING btree ("open_token_hash");