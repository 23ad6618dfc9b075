-- Keeps donation_company_month_stats equal to the donations table, grouped by organization, UTC
-- month of donation and company: company_id, or 0 with the typed name (trimmed, at most 500
-- characters) when the match names no catalogue company. submitted_cents is the estimated match
-- of the matches in the Submitted group (statuses 1, 4 and 28, statusGroups.engaged_submitted).
-- Statement-level triggers as donation_day_stats' (migration 0015): the changed rows are read
-- once, netted per key and upserted in key order.
CREATE FUNCTION donation_company_month_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only the transition tables its event has.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO donation_company_month_stats AS s (organization_id, month, company_id, company_name, count, matched_cents, submitted_cents)
    SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, coalesce(company_id, 0),
             CASE WHEN company_id IS NULL THEN left(trim(coalesce(company_name, '')), 500) ELSE '' END,
           count(*), sum(matched_cents), coalesce(sum(matched_cents) FILTER (WHERE status_id IN (1, 4, 28)), 0)
      FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, month, company_id, company_name) DO UPDATE
    SET count = s.count + excluded.count, matched_cents = s.matched_cents + excluded.matched_cents,
        submitted_cents = s.submitted_cents + excluded.submitted_cents;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO donation_company_month_stats AS s (organization_id, month, company_id, company_name, count, matched_cents, submitted_cents)
    SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, coalesce(company_id, 0),
             CASE WHEN company_id IS NULL THEN left(trim(coalesce(company_name, '')), 500) ELSE '' END,
           -count(*), -sum(matched_cents), -coalesce(sum(matched_cents) FILTER (WHERE status_id IN (1, 4, 28)), 0)
      FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, month, company_id, company_name) DO UPDATE
    SET count = s.count + excluded.count, matched_cents = s.matched_cents + excluded.matched_cents,
        submitted_cents = s.submitted_cents + excluded.submitted_cents;
  ELSE
    INSERT INTO donation_company_month_stats AS s (organization_id, month, company_id, company_name, count, matched_cents, submitted_cents)
    SELECT organization_id, month, company_id, company_name, sum(n), sum(m), sum(sm) FROM (
      SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date AS month, coalesce(company_id, 0) AS company_id,
             CASE WHEN company_id IS NULL THEN left(trim(coalesce(company_name, '')), 500) ELSE '' END AS company_name,
             1 AS n, matched_cents::bigint AS m, CASE WHEN status_id IN (1, 4, 28) THEN matched_cents::bigint ELSE 0 END AS sm
        FROM new_rows
      UNION ALL
      SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, coalesce(company_id, 0),
             CASE WHEN company_id IS NULL THEN left(trim(coalesce(company_name, '')), 500) ELSE '' END,
             -1, -matched_cents::bigint, CASE WHEN status_id IN (1, 4, 28) THEN -matched_cents::bigint ELSE 0 END
        FROM old_rows
    ) AS changes
    GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0 OR sum(m) <> 0 OR sum(sm) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, month, company_id, company_name) DO UPDATE
    SET count = s.count + excluded.count, matched_cents = s.matched_cents + excluded.matched_cents,
        submitted_cents = s.submitted_cents + excluded.submitted_cents;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER donation_company_month_stats_insert AFTER INSERT ON donations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_company_month_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_company_month_stats_update AFTER UPDATE ON donations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_company_month_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_company_month_stats_delete AFTER DELETE ON donations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_company_month_stats_apply();
--> statement-breakpoint
-- The matches already stored (run as the migrations run, before the server takes traffic).
INSERT INTO donation_company_month_stats (organization_id, month, company_id, company_name, count, matched_cents, submitted_cents)
SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, coalesce(company_id, 0),
       CASE WHEN company_id IS NULL THEN left(trim(coalesce(company_name, '')), 500) ELSE '' END,
       count(*), sum(matched_cents), coalesce(sum(matched_cents) FILTER (WHERE status_id IN (1, 4, 28)), 0)
  FROM donations GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- The forecast (and the donations list's expectedMonth filter) reads the submitted matches
-- awaiting payment of an organization over a range of donation dates: with what it reads carried
-- in this small partial index, the scan never visits the table (an index-only scan).
CREATE INDEX IF NOT EXISTS "donations_awaiting_payment_idx" ON "donations" USING btree ("organization_id", "donated_at")
  INCLUDE ("id", "company_id", "matched_cents", "updated_at") WHERE "status_id" IN (4, 28);
--> statement-breakpoint
-- The top companies add the months of each company first: without this the planner guesses a
-- group per row (tens of thousands for a large family), sorts them on disk instead of hashing
-- about a thousand companies.
CREATE STATISTICS IF NOT EXISTS "donation_company_month_stats_company" (ndistinct) ON "company_id", "company_name" FROM "donation_company_month_stats";
--> statement-breakpoint
ANALYZE "donation_company_month_stats";
