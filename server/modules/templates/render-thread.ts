import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { MailLinks } from './donor-mail.ts';
import type { RenderAnswer, RenderTask } from './render-worker.ts';

/**
 * An import's donor emails rendered and stored off the request thread (PostgreSQL only; PGlite is
 * this process's own database and has no second connection to give a thread). Rendering a
 * 4,000-row upload's emails and writing their HTML to PostgreSQL was most of what an import asked
 * of the event loop (bench/scale.ts's fairness check: React's rendering, the HMAC-signed links and
 * the socket writes of the HTML), and every other organization's requests waited behind it. One
 * thread, at a lower priority than the request thread (render-worker.ts); batches still lock
 * their rows (SKIP LOCKED), so it, the mail worker and other processes never render one twice.
 */
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

let pool: Piscina<RenderTask, RenderAnswer> | undefined;

const started = () => {
  pool ??= new Piscina<RenderTask, RenderAnswer>({
    filename: new URL('./render-worker.ts', import.meta.url).href,
    name: 'renderQueuedTask',
    execArgv: ['--import', tsxLoader],
    minThreads: 0,
    maxThreads: 1,
    // A second import's emails wait for the first's, in order, however many imports run.
    maxQueue: Number.POSITIVE_INFINITY,
    // The thread (and its database connection) goes after a minute without imports.
    idleTimeout: 60_000,
  });
  return pool;
};

/** Renders the queued emails in the worker thread; answers how many and which thread did it. */
export function renderQueuedOffThread(databaseUrl: string, links: MailLinks): Promise<RenderAnswer> {
  // Only what the links need crosses to the thread (no clock: off-thread is the system clock's).
  const { publicUrl, supportEmail, jwtSecret } = links;
  return started().run({ databaseUrl, links: { publicUrl, supportEmail, jwtSecret } });
}

/** Renders the thread has finished since the process started (the tests check the import uses it). */
export const renderThreadCompleted = (): number => pool?.completed ?? 0;

/** Stops the thread (shutdown, after the last import's emails were waited for). */
export async function closeRenderThread(): Promise<void> {
  const running = pool;
  pool = undefined;
  await running?.destroy();
}
