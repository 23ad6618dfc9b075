-- The 'contains' filters (donor, company) always ask within one organization (or a parent and its
-- chapters), but their trigram indexes (0022, 0024) were global: 'garcia' found the matching
-- donors of every organization on the service and then kept the organization's own, so a small
-- organization's search slowed as the others grew (issue #26: at 1,000,000 matches a small
-- organization's donor filter read a 27,776-entry bitmap to keep 20 donors). With btree_gin the
-- organization is the first column of the same GIN index, and a search reads only that
-- organization's entries.
--
-- PostgreSQL only: btree_gin ships with its contrib. The embedded database (PGlite, one machine)
-- keeps the global indexes: PGlite does ship a btree_gin build, but with it loaded an insert into
-- such an index never returned in our tests, and a single machine holds few organizations anyway.
-- So the change is made where the extension is available, and skipped where it is not.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'btree_gin') THEN
    CREATE EXTENSION IF NOT EXISTS btree_gin;
    CREATE INDEX IF NOT EXISTS "donors_org_name_trgm_idx" ON "donors" USING gin ("organization_id", lower("name") gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS "donors_org_email_trgm_idx" ON "donors" USING gin ("organization_id", "email" gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS "donations_org_company_trgm_idx" ON "donations" USING gin ("organization_id", lower("company_name") gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS "donation_company_stats_org_company_trgm_idx" ON "donation_company_stats" USING gin ("organization_id", "company" gin_trgm_ops);
    DROP INDEX IF EXISTS "donors_name_trgm_idx";
    DROP INDEX IF EXISTS "donors_email_trgm_idx";
    DROP INDEX IF EXISTS "donations_company_trgm_idx";
    DROP INDEX IF EXISTS "donation_company_stats_company_trgm_idx";
  END IF;
END $$;
