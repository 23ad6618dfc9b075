-- Keeps donation_month_stats equal to the donations table, grouped by organization, UTC month
-- of donation and status: donation_day_stats (migration 0015) by month, kept the same way.
-- Statement-level triggers read the statement's changed rows once, net them per key and upsert
-- in key order.
CREATE FUNCTION donation_month_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO donation_month_stats AS s (organization_id, month, status_id, count, amount_cents, matched_cents)
    SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, status_id, count(*), sum(amount_cents), sum(matched_cents)
      FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, month, status_id) DO UPDATE
      SET count = s.count + excluded.count, amount_cents = s.amount_cents + excluded.amount_cents,
          matched_cents = s.matched_cents + excluded.matched_cents;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO donation_month_stats AS s (organization_id, month, status_id, count, amount_cents, matched_cents)
    SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, status_id, -count(*), -sum(amount_cents), -sum(matched_cents)
      FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, month, status_id) DO UPDATE
      SET count = s.count + excluded.count, amount_cents = s.amount_cents + excluded.amount_cents,
          matched_cents = s.matched_cents + excluded.matched_cents;
  ELSE
    INSERT INTO donation_month_stats AS s (organization_id, month, status_id, count, amount_cents, matched_cents)
    SELECT organization_id, month, status_id, sum(n), sum(a), sum(m) FROM (
      SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date AS month, status_id, 1 AS n,
             amount_cents::bigint AS a, matched_cents::bigint AS m FROM new_rows
      UNION ALL
      SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, status_id, -1,
             -amount_cents::bigint, -matched_cents::bigint FROM old_rows
    ) AS changes
    GROUP BY 1, 2, 3
    HAVING sum(n) <> 0 OR sum(a) <> 0 OR sum(m) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, month, status_id) DO UPDATE
      SET count = s.count + excluded.count, amount_cents = s.amount_cents + excluded.amount_cents,
          matched_cents = s.matched_cents + excluded.matched_cents;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER donation_month_stats_insert AFTER INSERT ON donations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_month_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_month_stats_update AFTER UPDATE ON donations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_month_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_month_stats_delete AFTER DELETE ON donations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_month_stats_apply();
--> statement-breakpoint
-- The matches already stored (run as the migrations run, before the server takes traffic).
INSERT INTO donation_month_stats (organization_id, month, status_id, count, amount_cents, matched_cents)
SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, status_id, count(*), sum(amount_cents), sum(matched_cents)
  FROM donations GROUP BY 1, 2, 3;
