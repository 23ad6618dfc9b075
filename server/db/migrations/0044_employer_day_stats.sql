CREATE TABLE "donation_employer_day_stats" (
	"organization_id" integer NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "donation_employer_day_stats_organization_id_day_kind_pk" PRIMARY KEY("organization_id","day","kind")
);
