import { register } from 'node:module';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { markTracingStarted } from './tracing-state.ts';

/** Paths whose server spans are not recorded: the load balancer's probes, the metrics scrape. */
const untraced = /^\/(api\/health(\/live|\/ready)?|metrics)(\?|$)/;

/**
 * Starts OpenTelemetry (sdk-node) with the HTTP (server and outgoing: webhooks), PostgreSQL (pg)
 * and fetch (undici: Stripe) instrumentations. Must run before the app's modules load: the
 * import-in-the-middle hook registered here wraps ESM imports (drizzle's and ours of `pg`), which
 * the CommonJS require hook alone does not see. Returns a function that flushes and stops it.
 */
export async function startTracing(options: {
  serviceName: string;
  spanProcessor: SpanProcessor;
}): Promise<() => Promise<void>> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, { UndiciInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-pg'),
      import('@opentelemetry/instrumentation-undici'),
    ]);
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    spanProcessors: [options.spanProcessor],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => untraced.test(request.url ?? ''),
      }),
      // Statement text only (drizzle sends parameters apart): never values, which hold personal data.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  const stop = () => sdk.shutdown();
  markTracingStarted(stop);
  return stop;
}
