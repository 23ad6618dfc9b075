/**
 * The tracing preload: `node --import tsx --import ./server/observability/tracing.ts server/main.ts`
 * (what `npm run server` and `npm start` run). With OTEL_EXPORTER_OTLP_ENDPOINT unset it does
 * nothing and loads nothing; set, it starts OpenTelemetry before the app loads and exports spans
 * over OTLP/HTTP to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces` (the SDK honours the other standard
 * OTEL_* variables, e.g. OTEL_EXPORTER_OTLP_HEADERS).
 */
import { ConfigError, loadTracingConfig } from '../config.ts';

let endpoint: string | undefined;
let serviceName = 'twofold';
try {
  ({ endpoint, serviceName } = loadTracingConfig(process.env));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // The server's own configuration check names it again and stops; tracing stays off.
  process.stderr.write(`${error.message}\n`);
}

if (endpoint) {
  const [{ OTLPTraceExporter }, { BatchSpanProcessor }, { startTracing }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-trace-base'),
    import('./tracing-setup.ts'),
  ]);
  await startTracing({
    serviceName,
    spanProcessor: new BatchSpanProcessor(
      new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    ),
  });
}
