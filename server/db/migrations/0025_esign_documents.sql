CREATE TABLE "esign_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"donation_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"link_version" integer DEFAULT 0 NOT NULL,
	"link_sent_at" timestamp with time zone,
	"link_expires_at" timestamp with time zone,
	"donor_signed_at" timestamp with time zone,
	"countersigned_at" timestamp with time zone,
	"countersigned_by" integer,
	"file" text,
	"file_sha256" text,
	"audit" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"delivery_outbox_id" integer,
	"delivery_to" text,
	"delivered_at" timestamp with time zone,
	"posted_at" timestamp with time zone,
	"posted_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "donation_notifications" DROP CONSTRAINT "donation_notifications_kind_values";--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "forms_email" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "forms_address" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "esign_documents" ADD CONSTRAINT "esign_documents_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_documents" ADD CONSTRAINT "esign_documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_documents" ADD CONSTRAINT "esign_documents_countersigned_by_users_id_fk" FOREIGN KEY ("countersigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_documents" ADD CONSTRAINT "esign_documents_delivery_outbox_id_outbox_id_fk" FOREIGN KEY ("delivery_outbox_id") REFERENCES "public"."outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_documents" ADD CONSTRAINT "esign_documents_posted_by_users_id_fk" FOREIGN KEY ("posted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "esign_documents_donation_unique" ON "esign_documents" USING btree ("donation_id");--> statement-breakpoint
CREATE INDEX "esign_documents_org_idx" ON "esign_documents" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "esign_documents_outbox_idx" ON "esign_documents" USING btree ("delivery_outbox_id") WHERE "esign_documents"."delivery_outbox_id" is not null;--> statement-breakpoint
ALTER TABLE "donation_notifications" ADD CONSTRAINT "donation_notifications_kind_values" CHECK ("donation_notifications"."kind" in ('initial', 'reminder', 'deadline', 'expire', 'link'));