-- Keeps donation_company_stats (per organization, company name lowercased as the list's 'company
-- contains' filter compares it, and status) and donation_status_totals (per organization and
-- status) equal to the donations table, the way 0015 keeps donation_day_stats: statement-level
-- triggers read the changed rows once, net them per key and upsert in key order, nothing when no
-- counted column changed. Gifts without a company name count in the totals only. Every name the
-- app stores is at most 200 characters; the key keeps the first 600, so a btree entry always
-- fits and a write can never fail here.
CREATE FUNCTION donation_company_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH changes AS (SELECT organization_id, left(lower(company_name), 600) AS company, status_id, 1 AS n FROM new_rows),
    company_counts AS (
      INSERT INTO donation_company_stats AS s (organization_id, company, status_id, count)
      SELECT organization_id, company, status_id, sum(n) FROM changes
       WHERE company IS NOT NULL GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, company, status_id) DO UPDATE SET count = s.count + excluded.count
    )
    INSERT INTO donation_status_totals AS s (organization_id, status_id, count)
    SELECT organization_id, status_id, sum(n) FROM changes GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
    ON CONFLICT (organization_id, status_id) DO UPDATE SET count = s.count + excluded.count;
  ELSIF TG_OP = 'DELETE' THEN
    WITH changes AS (SELECT organization_id, left(lower(company_name), 600) AS company, status_id, -1 AS n FROM old_rows),
    company_counts AS (
      INSERT INTO donation_company_stats AS s (organization_id, company, status_id, count)
      SELECT organization_id, company, status_id, sum(n) FROM changes
       WHERE company IS NOT NULL GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, company, status_id) DO UPDATE SET count = s.count + excluded.count
    )
    INSERT INTO donation_status_totals AS s (organization_id, status_id, count)
    SELECT organization_id, status_id, sum(n) FROM changes GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
    ON CONFLICT (organization_id, status_id) DO UPDATE SET count = s.count + excluded.count;
  ELSE
    WITH changes AS (SELECT organization_id, left(lower(company_name), 600) AS company, status_id, 1 AS n FROM new_rows
      UNION ALL SELECT organization_id, left(lower(company_name), 600) AS company, status_id, -1 AS n FROM old_rows),
    company_counts AS (
      INSERT INTO donation_company_stats AS s (organization_id, company, status_id, count)
      SELECT organization_id, company, status_id, sum(n) FROM changes
       WHERE company IS NOT NULL GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, company, status_id) DO UPDATE SET count = s.count + excluded.count
    )
    INSERT INTO donation_status_totals AS s (organization_id, status_id, count)
    SELECT organization_id, status_id, sum(n) FROM changes GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
    ON CONFLICT (organization_id, status_id) DO UPDATE SET count = s.count + excluded.count;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER donation_company_stats_insert AFTER INSERT ON donations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_company_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_company_stats_update AFTER UPDATE ON donations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_company_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_company_stats_delete AFTER DELETE ON donations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_company_stats_apply();
--> statement-breakpoint
-- The names that hold the typed text, found without reading every row (pg_trgm, migration 0016).
CREATE INDEX IF NOT EXISTS "donation_company_stats_company_trgm_idx" ON "donation_company_stats" USING gin ("company" gin_trgm_ops);
--> statement-breakpoint
-- The matches already stored. (A concurrent write during this migration would be missed: run it
-- as the migrations run, before the server takes traffic.)
INSERT INTO donation_company_stats (organization_id, company, status_id, count)
SELECT organization_id, left(lower(company_name), 600), status_id, count(*)
  FROM donations WHERE company_name IS NOT NULL GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO donation_status_totals (organization_id, status_id, count)
SELECT organization_id, status_id, count(*) FROM donations GROUP BY 1, 2;
