CREATE TABLE "bills" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"plan" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"issued_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bills_org_period_unique" ON "bills" USING btree ("organization_id","period_start");--> statement-breakpoint
CREATE INDEX "bills_unissued_idx" ON "bills" USING btree ("period_end") WHERE "bills"."issued_at" is null;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_refunded_bill_id_bills_id_fk" FOREIGN KEY ("refunded_bill_id") REFERENCES "public"."bills"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_eligible_bill_id_bills_id_fk" FOREIGN KEY ("eligible_bill_id") REFERENCES "public"."bills"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_processed_bill_id_bills_id_fk" FOREIGN KEY ("processed_bill_id") REFERENCES "public"."bills"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donations_eligible_bill_idx" ON "donations" USING btree ("eligible_bill_id") WHERE "donations"."eligible_bill_id" is not null;