CREATE TABLE "donation_awaiting_payment_stats" (
	"organization_id" integer NOT NULL,
	"month" date NOT NULL,
	"company_id" integer NOT NULL,
	"sent_day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"matched_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "donation_awaiting_payment_stats_organization_id_month_company_id_sent_day_pk" PRIMARY KEY("organization_id","month","company_id","sent_day")
);
