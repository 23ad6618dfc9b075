-- The donations list's 'donor contains' filter finds the donors whose name or email holds the
-- typed text. A LIKE '%text%' cannot use a btree, so PostgreSQL read every donor (80 ms at
-- 250,000 donors); trigram GIN indexes (pg_trgm, which PGlite ships as an extension loaded by
-- server/db/client.ts) find them directly. The company filter's trigram index is on
-- donation_company_stats (the next migrations), whose few rows per company name answer the tile
-- counts without reading the gifts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "donors_name_trgm_idx" ON "donors" USING gin (lower("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "donors_email_trgm_idx" ON "donors" USING gin ("email" gin_trgm_ops);
--> statement-breakpoint
-- The tile counts of a donor filter count the gifts of the donors found: with the organization and
-- status carried in the donor index, that is an index-only scan (no gift is read from the table).
-- drizzle's index builder cannot express INCLUDE, hence this custom migration.
CREATE INDEX IF NOT EXISTS "donations_donor_status_idx" ON "donations" USING btree ("donor_id") INCLUDE ("organization_id", "status_id");
--> statement-breakpoint
-- The company filter's page walks the date (or amount) index and tests the name of each gift it
-- meets; the trigram index lets PostgreSQL fetch the gifts of a rare name directly instead.
CREATE INDEX IF NOT EXISTS "donations_company_trgm_idx" ON "donations" USING gin (lower("company_name") gin_trgm_ops);
