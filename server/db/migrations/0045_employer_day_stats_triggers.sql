-- Keeps donation_employer_day_stats equal to the donations table (schema.ts says what a kind is),
-- as 0015 keeps donation_day_stats: statement-level triggers read the statement's changed rows
-- once (transition tables), net them per key and upsert in key order, one small write per
-- statement, nothing when no counted column changed. 23 is Missing Company (src/contract/statuses.ts).
CREATE FUNCTION donation_employer_kind(company_id integer, employer_method text, status_id integer)
  RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN company_id IS NOT NULL THEN coalesce(employer_method, 'unrecorded')
              WHEN status_id = 23 THEN 'missing' END
$$;
--> statement-breakpoint
CREATE FUNCTION donation_employer_day_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO donation_employer_day_stats AS s (organization_id, day, kind, count)
    SELECT organization_id, (donated_at AT TIME ZONE 'UTC')::date, kind, count(*)
      FROM (SELECT organization_id, donated_at, donation_employer_kind(company_id, employer_method, status_id) AS kind
              FROM new_rows) AS r
     WHERE kind IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, day, kind) DO UPDATE SET count = s.count + excluded.count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO donation_employer_day_stats AS s (organization_id, day, kind, count)
    SELECT organization_id, (donated_at AT TIME ZONE 'UTC')::date, kind, -count(*)
      FROM (SELECT organization_id, donated_at, donation_employer_kind(company_id, employer_method, status_id) AS kind
              FROM old_rows) AS r
     WHERE kind IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, day, kind) DO UPDATE SET count = s.count + excluded.count;
  ELSE
    INSERT INTO donation_employer_day_stats AS s (organization_id, day, kind, count)
    SELECT organization_id, day, kind, sum(n) FROM (
      SELECT organization_id, (donated_at AT TIME ZONE 'UTC')::date AS day,
             donation_employer_kind(company_id, employer_method, status_id) AS kind, 1 AS n FROM new_rows
      UNION ALL
      SELECT organization_id, (donated_at AT TIME ZONE 'UTC')::date,
             donation_employer_kind(company_id, employer_method, status_id), -1 FROM old_rows
    ) AS changes
    WHERE kind IS NOT NULL
    GROUP BY 1, 2, 3
    HAVING sum(n) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, day, kind) DO UPDATE SET count = s.count + excluded.count;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER donation_employer_day_stats_insert AFTER INSERT ON donations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_employer_day_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_employer_day_stats_update AFTER UPDATE ON donations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_employer_day_stats_apply();
--> statement-breakpoint
CREATE TRIGGER donation_employer_day_stats_delete AFTER DELETE ON donations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION donation_employer_day_stats_apply();
--> statement-breakpoint
-- The matches already stored. (A concurrent write during this migration would be missed: run it
-- as the migrations run, before the server takes traffic.)
INSERT INTO donation_employer_day_stats (organization_id, day, kind, count)
SELECT organization_id, (donated_at AT TIME ZONE 'UTC')::date, kind, count(*)
  FROM (SELECT organization_id, donated_at, donation_employer_kind(company_id, employer_method, status_id) AS kind
          FROM donations) AS r
 WHERE kind IS NOT NULL GROUP BY 1, 2, 3;
