CREATE TABLE "donation_day_stats" (
	"organization_id" integer NOT NULL,
	"day" date NOT NULL,
	"status_id" integer NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"matched_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "donation_day_stats_organization_id_day_status_id_pk" PRIMARY KEY("organization_id","day","status_id")
);
