CREATE TABLE "donation_month_stats" (
	"organization_id" integer NOT NULL,
	"month" date NOT NULL,
	"status_id" integer NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"matched_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "donation_month_stats_organization_id_month_status_id_pk" PRIMARY KEY("organization_id","month","status_id")
);
