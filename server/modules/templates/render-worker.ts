import { setPriority } from 'node:os';
import { threadId } from 'node:worker_threads';
import { type Database, openDatabase } from '../../db/client.ts';
import type { MailLinks } from './donor-mail.ts';
import { renderQueuedMails } from './mail-queue.ts';

/**
 * The worker thread's task (render-thread.ts runs it by name): the queued donor emails rendered
 * into the outbox, with this thread's own connection to the same PostgreSQL.
 */
export type RenderTask = { databaseUrl: string; links: MailLinks };
export type RenderAnswer = { rendered: number; threadId: number };

// Below the request thread: on Linux a thread's nice value is its own, so the kernel gives a core
// to the thread answering requests first when both want one. (Raising the value needs no
// privilege; where it is refused the thread runs at the process's priority.)
try {
  setPriority(0, 10);
} catch {}

let opened: { url: string; database: Promise<Database> } | undefined;

export async function renderQueuedTask({ databaseUrl, links }: RenderTask): Promise<RenderAnswer> {
  if (opened?.url !== databaseUrl) {
    const previous = opened;
    opened = { url: databaseUrl, database: openDatabase({ databaseUrl }) };
    if (previous) void previous.database.then((d) => d.close()).catch(() => {});
  }
  const { db } = await opened.database;
  return { rendered: await renderQueuedMails(db, links), threadId };
}
