/**
 * Whether the tracing preload started OpenTelemetry in this process, and how to flush it (kept on
 * globalThis: the preload and the app may load this module through different loaders).
 */
const key = Symbol.for('twofold.tracing');

type State = { stop: () => Promise<void> };

function state(): State | undefined {
  return (globalThis as Record<symbol, State | undefined>)[key];
}

export function markTracingStarted(stop: () => Promise<void>): void {
  (globalThis as Record<symbol, State | undefined>)[key] = { stop };
}

export function tracingStarted(): boolean {
  return state() !== undefined;
}

/** Exports the spans still buffered and stops tracing (at the end of a graceful shutdown). */
export async function stopTracing(): Promise<void> {
  await state()
    ?.stop()
    .catch(() => undefined);
}
