import { hostname } from 'node:os';
import { trace } from '@opentelemetry/api';
import pino from 'pino';
import { currentWorkContext } from '../observability/context.ts';

/** Extra fields of one log line (ids, counts, durations): never secrets, tokens or addresses. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/**
 * Where the server writes its log lines. Never handed secrets, tokens or request bodies. Every line
 * written while a request or a job runs carries its request id (see server/observability/context.ts).
 */
export type Logger = {
  info: (message: string, fields?: LogFields) => void;
  warn: (message: string, fields?: LogFields) => void;
  error: (message: string, error?: unknown, fields?: LogFields) => void;
};

/** json: one JSON object a line (production, log collectors); human: the message as a person reads it. */
export type LogFormat = 'json' | 'human';
export type LogLevel = 'info' | 'warn' | 'error' | 'silent';

export type LoggerOptions = {
  format: LogFormat;
  level?: LogLevel;
  /** Where lines go; default: stdout (human: warnings and errors to stderr). Tests capture them. */
  write?: (line: string) => void;
  /** Addresses that may appear as written (the demo sign-ins in the start-up banner: published). */
  allowedEmails?: readonly string[];
};

/**
 * Field names whose values are never written, wherever they appear (one level deep), should a
 * caller ever pass such a field: the rule by name, on top of the rule by construction (callers
 * pass ids, never the secret or the address).
 */
export const redactedPaths = [
  'password',
  'token',
  'secret',
  'authorization',
  'cookie',
  'email',
  'to',
  'api_key',
  'key',
  '*.password',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.cookie',
  '*.email',
  '*.to',
  '*.api_key',
  '*.key',
  'req.headers',
];

const emailPattern = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** Signed tokens (JWT: sessions, donor links, CSV links), API keys, webhook signing secrets. */
const secretPatterns: Array<[RegExp, string]> = [
  [/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, '[jwt]'],
  [/\btf_[A-Za-z0-9_-]{16,}/g, '[api key]'],
  [/\bwhsec_[A-Za-z0-9+/=]{16,}/g, '[webhook secret]'],
];

/**
 * The last line of defence, applied to every written line whatever produced it (an error's
 * message quoting an SMTP answer or a database constraint's detail): email addresses, signed
 * tokens, API keys and webhook secrets are replaced by what they are.
 */
export function scrubLine(line: string, allowedEmails: ReadonlySet<string> = new Set()): string {
  let out = line.replace(emailPattern, (address) =>
    allowedEmails.has(address.toLowerCase()) ? address : '[email]',
  );
  for (const [pattern, name] of secretPatterns) out = out.replace(pattern, name);
  return out;
}

/** The request, job and trace a line belongs to (pino's mixin: read for every line). */
function contextFields(): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const work = currentWorkContext();
  if (work?.requestId) fields.request_id = work.requestId;
  if (work?.job) fields.job = work.job;
  if (work?.jobId !== undefined) fields.job_id = work.jobId;
  const span = trace.getActiveSpan()?.spanContext();
  if (span && trace.isSpanContextValid(span)) {
    fields.trace_id = span.traceId;
    fields.span_id = span.spanId;
  }
  return fields;
}

/** One JSON line as a person reads it: the message, its request, and an error's stack. */
function humanLine(json: string): { text: string; level: string } {
  try {
    const entry = JSON.parse(json) as Record<string, unknown>;
    const err = entry.err as { stack?: string; message?: string } | undefined;
    const request = typeof entry.request_id === 'string' ? ` [request ${entry.request_id}]` : '';
    const job =
      typeof entry.job === 'string' ? ` [${entry.job} ${String(entry.job_id ?? '')}]`.trimEnd() : '';
    const stack = err ? `\n${err.stack ?? err.message ?? ''}` : '';
    return { text: `${String(entry.msg ?? '')}${job}${request}${stack}\n`, level: String(entry.level) };
  } catch {
    return { text: json, level: 'info' };
  }
}

/** A Logger on pino: JSON lines (or human ones), request ids from the work context, secrets scrubbed. */
export function createLogger(options: LoggerOptions): Logger {
  const allowed = new Set((options.allowedEmails ?? []).map((e) => e.toLowerCase()));
  const destination = {
    write: (line: string) => {
      const clean = scrubLine(line, allowed);
      if (options.format === 'json') {
        if (options.write) options.write(clean);
        else process.stdout.write(clean);
        return;
      }
      const { text, level } = humanLine(clean);
      if (options.write) options.write(text);
      else (level === 'warn' || level === 'error' ? process.stderr : process.stdout).write(text);
    },
  };
  const log = pino(
    {
      level: options.level ?? 'info',
      base: { service: 'twofold', hostname: hostname(), pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: contextFields,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
  return {
    info: (message, fields) => (fields ? log.info(fields, message) : log.info(message)),
    warn: (message, fields) => (fields ? log.warn(fields, message) : log.warn(message)),
    error: (message, error, fields) => {
      if (error === undefined) return fields ? log.error(fields, message) : log.error(message);
      const err = error instanceof Error ? error : new Error(String(error));
      log.error({ ...fields, err }, message);
    },
  };
}

/**
 * The logger of code run without one handed in (tests, scripts): human lines on a terminal,
 * JSON otherwise. The server makes its own from the configuration (LOG_FORMAT, LOG_LEVEL).
 */
export const consoleLogger: Logger = createLogger({ format: process.stdout.isTTY ? 'human' : 'json' });

/** A logger that keeps its lines, for tests that check what is (and is not) logged. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(message),
    warn: (message) => lines.push(message),
    error: (message, error) =>
      lines.push(error instanceof Error ? `${message} ${error.stack ?? error.message}` : message),
  };
}
