import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a log line (and a database transaction) knows about the work it belongs to: the request
 * being handled, or the job being worked and the request that caused it. Kept in an
 * AsyncLocalStorage, so the many callers of the Logger change nothing: every line written while
 * the work runs carries these fields.
 */
export type WorkContext = {
  /** The request's id (X-Request-Id), or the id of the request that caused a job. */
  requestId?: string | undefined;
  /** The job being worked: 'mail', 'webhook', 'screening', ... */
  job?: string | undefined;
  /** The job's row (outbox id, webhook delivery id, ...). */
  jobId?: number | undefined;
};

const storage = new AsyncLocalStorage<WorkContext>();

/** Runs `fn` with these fields on every log line it writes (and the request id on the rows it queues). */
export function withWorkContext<T>(context: WorkContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the work running now, if any. */
export function currentWorkContext(): WorkContext | undefined {
  return storage.getStore();
}

/** The id of the request being handled now, or of the request that caused the job being worked. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
