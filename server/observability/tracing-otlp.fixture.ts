/**
 * Run after the real preload (tracing.ts) by tracing.test.ts: one HTTP request to a local server,
 * then a flush; prints whether tracing was started. With OTEL_EXPORTER_OTLP_ENDPOINT set the span
 * reaches the test's collector over OTLP/HTTP; unset, nothing starts.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stopTracing, tracingStarted } from './tracing-state.ts';

const server = createServer((_req, res) => res.writeHead(204).end());
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
await new Promise<void>((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port, path: '/probe' }, (res) => {
    res.resume();
    res.on('end', resolve);
  });
  req.on('error', reject);
  req.end();
});
server.close();
await stopTracing();
process.stdout.write(`\n${JSON.stringify({ started: tracingStarted() })}\n`);
