import { AsyncLocalStorage } from 'node:async_hooks';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

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
const tracer = trace.getTracer('twofold');

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

/**
 * Works a job inside its work context (log lines carry its request id) and, when tracing is on,
 * inside a span of its own named `name` whose attributes name the job and the request that queued
 * it (the delivery's outgoing call is that span's child). Without tracing the span is a no-op.
 */
export function workJob<T>(
  name: string,
  context: { requestId: string | null | undefined; job: string; jobId: number },
  fn: () => Promise<T>,
): Promise<T> {
  const requestId = context.requestId ?? undefined;
  return withWorkContext({ requestId, job: context.job, jobId: context.jobId }, () =>
    tracer.startActiveSpan(
      name,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'twofold.job': context.job,
          'twofold.job_id': context.jobId,
          ...(requestId ? { 'twofold.request_id': requestId } : {}),
        },
      },
      async (span) => {
        try {
          return await fn();
        } catch (error) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      },
    ),
  );
}
