CREATE TABLE "donation_company_stats" (
	"organization_id" integer NOT NULL,
	"company" text NOT NULL,
	"status_id" integer NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "donation_company_stats_organization_id_company_status_id_pk" PRIMARY KEY("organization_id","company","status_id")
);
--> statement-breakpoint
CREATE TABLE "donation_status_totals" (
	"organization_id" integer NOT NULL,
	"status_id" integer NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "donation_status_totals_organization_id_status_id_pk" PRIMARY KEY("organization_id","status_id")
);
