/**
 * Test preload (tracing.test.ts): starts tracing exactly as the real preload does (startTracing,
 * loaded with --import before the app), but into an in-memory exporter the fixture reads back.
 */
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing } from './tracing-setup.ts';

const exporter = new InMemorySpanExporter();
(globalThis as Record<symbol, unknown>)[Symbol.for('twofold.test.spans')] = exporter;
await startTracing({ serviceName: 'twofold-test', spanProcessor: new SimpleSpanProcessor(exporter) });
