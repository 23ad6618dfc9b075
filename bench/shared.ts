/** What the benchmarks share: where their PostgreSQL is, and how to print figures. */

/** The server (without a database name): BENCH_DATABASE_URL, or the local PostgreSQL. */
export function serverUrl(): string {
  return (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '');
}

export function benchDatabaseUrl(database: string): string {
  return `${serverUrl()}/${database}`;
}

/** The p-th percentile (0–100) of a list of milliseconds, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
