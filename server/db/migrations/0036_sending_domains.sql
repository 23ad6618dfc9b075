CREATE TABLE "sending_domain_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"sending_domain_id" integer NOT NULL,
	"selector" text NOT NULL,
	"public_key" text NOT NULL,
	"private_key_sealed" text,
	"state" text DEFAULT 'new' NOT NULL,
	"activated_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sending_domain_keys_state_values" CHECK ("sending_domain_keys"."state" in ('new', 'active', 'retired'))
);
--> statement-breakpoint
CREATE TABLE "sending_domains" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"from_name" text NOT NULL,
	"from_email" text NOT NULL,
	"domain" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"verified_at" timestamp with time zone,
	"last_check" jsonb,
	"checked_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sending_domains_status_values" CHECK ("sending_domains"."status" in ('pending', 'verified', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "organization_id" integer;--> statement-breakpoint
ALTER TABLE "sending_domain_keys" ADD CONSTRAINT "sending_domain_keys_sending_domain_id_sending_domains_id_fk" FOREIGN KEY ("sending_domain_id") REFERENCES "public"."sending_domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sending_domains" ADD CONSTRAINT "sending_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sending_domain_keys_selector_unique" ON "sending_domain_keys" USING btree ("sending_domain_id","selector");--> statement-breakpoint
CREATE UNIQUE INDEX "sending_domains_org_unique" ON "sending_domains" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "sending_domains_next_check_idx" ON "sending_domains" USING btree ("next_check_at");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;