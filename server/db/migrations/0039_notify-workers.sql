-- Custom SQL: wake the job workers when work is committed (issue #26). A statement that queues
-- mail, webhook deliveries, or scheduled jobs already due notifies the worker's channel; NOTIFY
-- is transactional, so the wake-up is delivered when the enqueueing transaction commits and
-- never for one that rolls back. One notification per statement (and PostgreSQL folds identical
-- ones within a transaction), whatever the number of rows. The workers keep polling: a lost
-- notification only costs a poll interval.
CREATE OR REPLACE FUNCTION twofold_notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('twofold_outbox', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
  FOR EACH STATEMENT EXECUTE FUNCTION twofold_notify_outbox();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION twofold_notify_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('twofold_webhooks', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION twofold_notify_webhooks();
--> statement-breakpoint
-- Scheduled jobs: only a statement that inserts a job due now wakes the scheduler (most are
-- planned days ahead; the scheduler's poll finds them when they fall due).
CREATE OR REPLACE FUNCTION twofold_notify_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_jobs WHERE status = 'pending' AND run_at <= now()) THEN
    PERFORM pg_notify('twofold_jobs', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER scheduled_jobs_notify AFTER INSERT ON scheduled_jobs
  REFERENCING NEW TABLE AS new_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION twofold_notify_jobs();
