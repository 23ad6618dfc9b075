CREATE TABLE "donation_company_month_stats" (
	"organization_id" integer NOT NULL,
	"month" date NOT NULL,
	"company_id" integer NOT NULL,
	"company_name" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"matched_cents" bigint DEFAULT 0 NOT NULL,
	"submitted_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "donation_company_month_stats_organization_id_month_company_id_company_name_pk" PRIMARY KEY("organization_id","month","company_id","company_name")
);
--> statement-breakpoint
CREATE TABLE "donation_month_stats" (
	"organization_id" integer NOT NULL,
	"month" date NOT NULL,
	"status_id" integer NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"matched_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "donation_month_stats_organization_id_month_status_id_pk" PRIMARY KEY("organization_id","month","status_id")
);
