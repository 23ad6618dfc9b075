import { asc, eq, sql } from 'drizzle-orm';
import type { TemplateStage } from '../../../src/contract/email-templates.ts';
import { systemClock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { anyOf } from '../../db/rows.ts';
import { donationNotifications, emailTemplates } from '../../db/schema.ts';
import type { NotificationLinks } from '../notifications/notifications.service.ts';
import { emailCompanyName, matchFacts, type PlannedMail, renderMails } from './donor-mail.ts';

/**
 * Queued donor emails (sendDonorMails with `queue`: a bulk import records its emails' facts in
 * its transaction) rendered into the outbox. Right after the import commits, it starts in the
 * background (server/jobs/after-commit.ts); the mail worker runs it before each delivery round
 * too, so emails queued by a process that stopped before rendering them still go out.
 */

/**
 * Whether any email waits to be rendered. The mail worker asks every round: with nothing queued
 * (almost always) one index probe answers, not a transaction of three statements (nor a task for
 * the render thread).
 */
export async function hasQueuedMails(db: Db): Promise<boolean> {
  const [any] = await db
    .select({ id: donationNotifications.id })
    .from(donationNotifications)
    .where(eq(donationNotifications.queued, true))
    .limit(1);
  return any !== undefined;
}

/** Emails rendered per transaction. */
const queueBatch = 500;

/**
 * Renders every queued email, `queueBatch` at a time, each batch in its own transaction (its
 * rows locked, skipping rows another renderer holds): the email as the match stands now, from
 * the template version and stage recorded. A queued email whose match or template version was
 * deleted meanwhile is dropped. Returns how many were rendered.
 */
export async function renderQueuedMails(db: Db, links: NotificationLinks): Promise<number> {
  if (!(await hasQueuedMails(db))) return 0;
  let rendered = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const queued = await tx
        .select({
          id: donationNotifications.id,
          donation_id: donationNotifications.donation_id,
          to_email: donationNotifications.to_email,
          template_id: donationNotifications.template_id,
          stage: donationNotifications.stage,
          kind: donationNotifications.kind,
        })
        .from(donationNotifications)
        .where(eq(donationNotifications.queued, true))
        .orderBy(asc(donationNotifications.id))
        .limit(queueBatch)
        .for('update', { skipLocked: true });
      if (queued.length === 0) return { found: 0, made: 0 };
      const facts = new Map(
        (
          await matchFacts(
            tx,
            queued.map((q) => q.donation_id),
          )
        ).map((f) => [f.id, f]),
      );
      const templateIds = [
        ...new Set(queued.flatMap((q) => (q.template_id === null ? [] : [q.template_id]))),
      ];
      const templates = new Map(
        (templateIds.length
          ? await tx
              .select()
              .from(emailTemplates)
              .where(anyOf(emailTemplates.id, templateIds, 'int'))
          : []
        ).map((t) => [t.id, t]),
      );
      const recorded: Array<{ id: number; mail: PlannedMail }> = [];
      const dropped: number[] = [];
      for (const q of queued) {
        const row = facts.get(q.donation_id);
        const template = q.template_id === null ? undefined : templates.get(q.template_id);
        if (!row || !template) {
          dropped.push(q.id);
          continue;
        }
        recorded.push({
          id: q.id,
          mail: {
            row,
            email: q.to_email,
            companyName: emailCompanyName(row),
            template,
            stage: q.stage as TemplateStage,
            kind: q.kind as PlannedMail['kind'],
          },
        });
      }
      if (dropped.length > 0)
        await tx.execute(sql`delete from ${donationNotifications} where ${anyOf(sql`id`, dropped, 'int')}`);
      if (recorded.length > 0) {
        await renderMails(tx, recorded, links, (links.clock ?? systemClock).now(), 'update');
        // Each email's outbox row repeats the request that queued it (an import), whichever
        // request or worker renders the batch.
        await tx.execute(
          sql`update outbox o set request_id = n.request_id from ${donationNotifications} n
               where ${anyOf(
                 sql`n.id`,
                 recorded.map((r) => r.id),
                 'int',
               )} and o.id = n.outbox_id
                 and o.request_id is distinct from n.request_id`,
        );
      }
      return { found: queued.length, made: recorded.length };
    });
    rendered += batch.made;
    if (batch.found < queueBatch) return rendered;
  }
}
