-- Keeps donation_awaiting_payment_stats equal to the matches awaiting payment (statuses 4 and
-- 28), grouped by organization, UTC month of donation, company (0 for none) and the UTC day the
-- match was last submitted: its latest move to 4 or 28 in donation_status_history, else its last
-- update (the rule of server/modules/donations/expected-payment.ts).
-- The day a match counts on, as the history stands now.
CREATE FUNCTION donation_sent_day(donation integer, updated timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (coalesce((SELECT max(h.at) FROM donation_status_history h
                     WHERE h.donation_id = donation AND h.to_status_id IN (4, 28)), updated) AT TIME ZONE 'UTC')::date
$$;
--> statement-breakpoint
-- Inserts and updates of donations: statement-level, the changed rows read once and netted per
-- key (nothing when no counted column changed), upserted in key order like donation_month_stats.
CREATE FUNCTION donation_awaiting_payment_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO donation_awaiting_payment_stats AS s (organization_id, month, company_id, sent_day, count, matched_cents)
    SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, coalesce(company_id, 0),
           donation_sent_day(id, updated_at), count(*), sum(matched_cents)
      FROM new_rows WHERE status_id IN (4, 28) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, month, company_id, sent_day) DO UPDATE
      SET count = s.count + excluded.count, matched_cents = s.matched_cents + excluded.matched_cents;
  ELSE
    INSERT INTO donation_awaiting_payment_stats AS s (organization_id, month, company_id, sent_day, count, matched_cents)
    SELECT organization_id, month, company_id, sent_day, sum(n), sum(m) FROM (
      SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date AS month,
             coalesce(company_id, 0) AS company_id, donation_sent_day(id, updated_at) AS sent_day, 1 AS n,
             matched_cents::bigint AS m
        FROM new_rows WHERE status_id IN (4, 28)
      UNION ALL
      SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, coalesce(company_id, 0),
             donation_sent_day(id, updated_at), -1, -matched_cents::bigint
        FROM old_rows WHERE status_id IN (4, 28)
    ) AS changes
    GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0 OR sum(m) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, month, company_id, sent_day) DO UPDATE
      SET count = s.count + excluded.count, matched_cents = s.matched_cents + excluded.matched_cents;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Deletes: before each awaiting row goes, while its history (deleted with it by the foreign key's
-- cascade) still says its day. Rows in other statuses skip the trigger (WHEN).
CREATE FUNCTION donation_awaiting_payment_stats_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE donation_awaiting_payment_stats
     SET count = count - 1, matched_cents = matched_cents - OLD.matched_cents
   WHERE organization_id = OLD.organization_id
     AND month = date_trunc('month', OLD.donated_at AT TIME ZONE 'UTC')::date
     AND company_id = coalesce(OLD.company_id, 0)
     AND sent_day = donation_sent_day(OLD.id, OLD.updated_at);
  RETURN OLD;
END
$$;
--> statement-breakpoint
-- History written, changed or removed: each awaiting match whose moves to 4 or 28 changed goes
-- from the day its history said before the statement to the day it says now.
CREATE FUNCTION donation_awaiting_payment_history_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added integer[] := '{}';
  touched integer[] := '{}';
  removed_donation integer[] := '{}';
  removed_at timestamptz[] := '{}';
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(array_agg(id), '{}'),
           coalesce(array_agg(DISTINCT donation_id) FILTER (WHERE to_status_id IN (4, 28)), '{}')
      INTO added, touched FROM new_rows;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    SELECT coalesce(array_agg(donation_id), '{}'), coalesce(array_agg(at), '{}')
      INTO removed_donation, removed_at FROM old_rows WHERE to_status_id IN (4, 28);
    touched := touched || removed_donation;
  END IF;
  IF cardinality(touched) = 0 THEN
    RETURN NULL;
  END IF;
  -- The matches' rows locked first (in id order), so a concurrent update or delete of one of them
  -- waits for this transaction, and this statement, if it waited, reads what that one committed:
  -- the two never move the same match from two different pictures of it.
  PERFORM 1 FROM donations WHERE id = ANY (touched) ORDER BY id FOR NO KEY UPDATE;
  WITH moved AS (
    SELECT d.organization_id, date_trunc('month', d.donated_at AT TIME ZONE 'UTC')::date AS month,
           coalesce(d.company_id, 0) AS company_id, d.matched_cents::bigint AS m,
           (coalesce(greatest(
              (SELECT max(h.at) FROM donation_status_history h
                WHERE h.donation_id = d.id AND h.to_status_id IN (4, 28) AND NOT (h.id = ANY (added))),
              (SELECT max(r.at) FROM unnest(removed_donation, removed_at) AS r(donation_id, at) WHERE r.donation_id = d.id)
            ), d.updated_at) AT TIME ZONE 'UTC')::date AS before_day,
           donation_sent_day(d.id, d.updated_at) AS after_day
      FROM donations d
     WHERE d.id = ANY (touched) AND d.status_id IN (4, 28)
  )
  INSERT INTO donation_awaiting_payment_stats AS s (organization_id, month, company_id, sent_day, count, matched_cents)
  SELECT organization_id, month, company_id, sent_day, sum(n), sum(m) FROM (
    SELECT organization_id, month, company_id, after_day AS sent_day, 1 AS n, m FROM moved WHERE before_day <> after_day
    UNION ALL
    SELECT organization_id, month, company_id, before_day, -1, -m FROM moved WHERE before_day <> after_day
  ) AS changes
  GROUP BY 1, 2, 3, 4
  HAVING sum(n) <> 0 OR sum(m) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (organization_id, month, company_id, sent_day) DO UPDATE
    SET count = s.count + excluded.count, matched_cents = s.matched_cents + excluded.matched_cents;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER donation_awaiting_payment_stats_insert AFTER INSERT ON donations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_awaiting_payment_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_awaiting_payment_stats_update AFTER UPDATE ON donations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_awaiting_payment_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_awaiting_payment_stats_delete BEFORE DELETE ON donations
  FOR EACH ROW WHEN (OLD.status_id IN (4, 28)) EXECUTE FUNCTION donation_awaiting_payment_stats_delete();
--> statement-breakpoint
CREATE TRIGGER donation_awaiting_payment_history_insert AFTER INSERT ON donation_status_history
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_awaiting_payment_history_apply();
--> statement-breakpoint
CREATE TRIGGER donation_awaiting_payment_history_update AFTER UPDATE ON donation_status_history
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_awaiting_payment_history_apply();
--> statement-breakpoint
CREATE TRIGGER donation_awaiting_payment_history_delete AFTER DELETE ON donation_status_history
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_awaiting_payment_history_apply();
--> statement-breakpoint
-- The matches already stored (run as the migrations run, before the server takes traffic).
INSERT INTO donation_awaiting_payment_stats (organization_id, month, company_id, sent_day, count, matched_cents)
SELECT organization_id, date_trunc('month', donated_at AT TIME ZONE 'UTC')::date, coalesce(company_id, 0),
       donation_sent_day(id, updated_at), count(*), sum(matched_cents)
  FROM donations WHERE status_id IN (4, 28) GROUP BY 1, 2, 3, 4;
