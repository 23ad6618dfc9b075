import { and, asc, count, eq, inArray, max, sql } from 'drizzle-orm';
import { twoProportionTest } from '../../../src/contract/ab-test.ts';
import {
  type EmailTemplate,
  maxTemplateVersions,
  type TemplateBody,
  type TemplateStage,
  type TemplateStats,
  type TemplatesResponse,
  type TemplateTextField,
  type TemplateTexts,
  type TemplateTypeId,
  templateCards,
  templateTextFields,
  templateTexts,
  templateTypeIds,
  unknownVariable,
  type VersionComparison,
  versionLabels,
} from '../../../src/contract/email-templates.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { donationNotifications, emailTemplates, organizations } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { renderDonorEmail } from '../../mail/donor-email.tsx';
import { type AuditBy, recordBy } from '../audit/audit.ts';
import { shippedTemplates } from './defaults.ts';
import { sampleValues } from './variables.ts';

type TemplateRow = typeof emailTemplates.$inferSelect;

export function isTemplateType(statusId: number): statusId is TemplateTypeId {
  return (templateTypeIds as readonly number[]).includes(statusId);
}

function textsOf(row: TemplateRow): TemplateTexts {
  // The Default version always says what this release ships, not what was shipped when its row
  // was first made: "An organization that changed nothing sends the defaults."
  if (row.version === 0 && isTemplateType(row.status_id)) return shippedTemplates[row.status_id];
  return Object.fromEntries(templateTextFields.map((f) => [f, row[f]])) as TemplateTexts;
}

/** The texts a version sends. */
export function versionTexts(row: TemplateRow): TemplateTexts {
  return textsOf(row);
}

const noStats = (): TemplateStats => ({
  sent: 0,
  opened: 0,
  confirm_clicked: 0,
  decline_clicked: 0,
  r1_sent: 0,
  r1_opened: 0,
  r1_confirm_clicked: 0,
  r2_sent: 0,
  r2_opened: 0,
  r2_confirm_clicked: 0,
});

/**
 * spec (section 3): "Stats: sent, opened, confirm_clicked, decline_clicked, r1_sent, r1_opened,
 * r1_confirm_clicked, r2_sent, r2_opened, r2_confirm_clicked", counted from the emails each
 * version sent: stage 1 (the initial email, or a deadline email), 2 and 3 (the reminders).
 */
export async function statsOf(db: Queryable, templateIds: number[]): Promise<Map<number, TemplateStats>> {
  const stats = new Map(templateIds.map((id) => [id, noStats()]));
  if (templateIds.length === 0) return stats;
  const rows = await db
    .select({
      template_id: donationNotifications.template_id,
      stage: donationNotifications.stage,
      sent: count(),
      opened: count(donationNotifications.first_open),
      confirmed: count(donationNotifications.confirm_clicked_at),
      declined: count(donationNotifications.decline_clicked_at),
    })
    .from(donationNotifications)
    .where(inArray(donationNotifications.template_id, templateIds))
    .groupBy(donationNotifications.template_id, donationNotifications.stage);
  for (const r of rows) {
    const s = r.template_id === null ? undefined : stats.get(r.template_id);
    if (!s) continue;
    if (r.stage === 1) {
      s.sent += r.sent;
      s.opened += r.opened;
      s.confirm_clicked += r.confirmed;
      s.decline_clicked += r.declined;
    } else if (r.stage === 2) {
      s.r1_sent += r.sent;
      s.r1_opened += r.opened;
      s.r1_confirm_clicked += r.confirmed;
    } else {
      s.r2_sent += r.sent;
      s.r2_opened += r.opened;
      s.r2_confirm_clicked += r.confirmed;
    }
  }
  return stats;
}

function toTemplate(row: TemplateRow, stats: TemplateStats): EmailTemplate {
  return {
    id: row.id,
    organization_id: row.organization_id,
    status_id: row.status_id,
    version: row.version,
    label: versionLabels[row.version] ?? String(row.version),
    live: row.live,
    stats,
    ...textsOf(row),
  };
}

/** The Default version's row of these template types, made on first use (ids for stats and links). */
export async function ensureDefaults(
  db: Queryable,
  pairs: ReadonlyArray<{ organization_id: number; status_id: TemplateTypeId }>,
): Promise<void> {
  if (pairs.length === 0) return;
  await db
    .insert(emailTemplates)
    .values(pairs.map((p) => ({ ...p, version: 0, live: true })))
    .onConflictDoNothing();
}

/** GET mail-templates/{statusId}: "templates (each with stats)", Default first. */
export async function listTemplates(
  db: Queryable,
  orgId: number,
  statusId: number,
): Promise<TemplatesResponse> {
  if (!isTemplateType(statusId)) throw new HttpError(404, templateTexts.unknownType);
  await ensureDefaults(db, [{ organization_id: orgId, status_id: statusId }]);
  const rows = await db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.organization_id, orgId), eq(emailTemplates.status_id, statusId)))
    .orderBy(asc(emailTemplates.version));
  const stats = await statsOf(
    db,
    rows.map((r) => r.id),
  );
  const templates = rows.map((r) => toTemplate(r, stats.get(r.id) ?? noStats()));
  return { templates, comparisons: compareVersions(templates) };
}

/** The confirm rate (initial emails) of each pair of versions that sent emails, tested. */
export function compareVersions(templates: readonly EmailTemplate[]): VersionComparison[] {
  const sending = templates.filter((t) => t.stats.sent > 0);
  return sending.flatMap((a, i) =>
    sending.slice(i + 1).map((b) => {
      const test = twoProportionTest(
        a.stats.confirm_clicked,
        a.stats.sent,
        b.stats.confirm_clicked,
        b.stats.sent,
      );
      return {
        a: a.id,
        b: b.id,
        p_value: test.enough ? test.pValue : null,
        significant: test.enough && test.significant,
        message: test.message,
      };
    }),
  );
}

async function findTemplate(db: Queryable, orgId: number, id: number): Promise<TemplateRow> {
  const [row] = await db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.id, id), eq(emailTemplates.organization_id, orgId)));
  if (!row) throw new HttpError(404, templateTexts.notFound);
  return row;
}

/** GET template/{id}. */
export async function getTemplate(db: Queryable, orgId: number, id: number): Promise<EmailTemplate> {
  const row = await findTemplate(db, orgId, id);
  const stats = await statsOf(db, [row.id]);
  return toTemplate(row, stats.get(row.id) ?? noStats());
}

function bodyTexts(body: TemplateBody): TemplateTexts {
  return Object.fromEntries(templateTextFields.map((f) => [f, body[f]])) as TemplateTexts;
}

/** spec: unknown `{{variable}}`s are refused on save, naming the variable and where it is. */
function checkVariables(texts: TemplateTexts): void {
  const unknown = unknownVariable(texts);
  if (unknown) throw new HttpError(400, templateTexts.unknownVariable(unknown.name, unknown.field));
}

const sameTexts = (a: TemplateTexts, b: TemplateTexts) =>
  templateTextFields.every((f: TemplateTextField) => a[f] === b[f]);

/**
 * POST template/{id}: save a version's texts and live flag. `id` 0 creates a version of
 * `body.status_id` (spec: "create a version (body includes organization_id and live false)"),
 * labelled with the next letter, refused beyond 5 versions. The Default version is read-only
 * (spec: "The default version's fields are read-only") and always live: saving it unchanged
 * answers it as it is; any change is refused.
 */
/** The words an audit entry names a template version by: "Below minimum, version A". */
function templateName(row: { status_id: number; version: number }): string {
  const type =
    templateCards.find((t) => t.status_id === row.status_id)?.name ?? `Template type ${row.status_id}`;
  return `${type}, version ${versionLabels[row.version] ?? row.version}`;
}

/** An email template change, recorded in the change's transaction. */
function recordTemplateChange(
  tx: Queryable,
  by: AuditBy,
  orgId: number,
  row: { id: number; status_id: number; version: number; live: boolean },
  action: 'created' | 'saved' | 'reset',
): Promise<unknown> {
  const words = { created: 'Created', saved: 'Saved', reset: 'Reset to the default texts' }[action];
  return recordBy(tx, by, {
    kind: 'template.changed',
    organizationId: orgId,
    summary: `${words}: ${templateName(row)}`,
    details: { template_id: row.id, status_id: row.status_id, version: row.version, live: row.live, action },
  });
}

export async function saveTemplate(
  db: Db,
  orgId: number,
  id: number,
  body: TemplateBody,
  by: AuditBy,
): Promise<EmailTemplate> {
  const texts = bodyTexts(body);
  if (id === 0) {
    const statusId = body.status_id;
    if (statusId === undefined || !isTemplateType(statusId))
      throw new HttpError(400, templateTexts.unknownType);
    checkVariables(texts);
    return db.transaction(async (tx) => {
      await ensureDefaults(tx, [{ organization_id: orgId, status_id: statusId }]);
      // Two editors adding a version at once: the second waits, then counts the first's.
      await tx.execute(
        sql`select id from ${emailTemplates} where ${emailTemplates.organization_id} = ${orgId} and ${emailTemplates.status_id} = ${statusId} and ${emailTemplates.version} = 0 for update`,
      );
      const [existing] = await tx
        .select({ n: count(), last: max(emailTemplates.version) })
        .from(emailTemplates)
        .where(and(eq(emailTemplates.organization_id, orgId), eq(emailTemplates.status_id, statusId)));
      if ((existing?.n ?? 0) >= maxTemplateVersions) throw new HttpError(409, templateTexts.tooMany);
      const version = (existing?.last ?? 0) + 1;
      if (version >= versionLabels.length) throw new HttpError(409, templateTexts.tooMany);
      const [row] = await tx
        .insert(emailTemplates)
        .values({ organization_id: orgId, status_id: statusId, version, live: body.live ?? false, ...texts })
        .returning();
      if (!row) throw new Error('template insert returned no row');
      await recordTemplateChange(tx, by, orgId, row, 'created');
      return toTemplate(row, noStats());
    });
  }
  const row = await findTemplate(db, orgId, id);
  if (row.version === 0) {
    if (!sameTexts(texts, textsOf(row)) || body.live === false)
      throw new HttpError(409, templateTexts.defaultReadOnly);
    return getTemplate(db, orgId, id);
  }
  checkVariables(texts);
  const updated = await db.transaction(async (tx) => {
    const [saved] = await tx
      .update(emailTemplates)
      .set({ ...texts, live: body.live ?? row.live })
      .where(eq(emailTemplates.id, row.id))
      .returning();
    if (!saved) throw new HttpError(404, templateTexts.notFound);
    await recordTemplateChange(tx, by, orgId, saved, 'saved');
    return saved;
  });
  return getTemplate(db, orgId, updated.id);
}

/** POST template/{id}/reset: the version's texts back to the shipped Default (its live flag stays). */
export async function resetTemplate(db: Db, orgId: number, id: number, by: AuditBy): Promise<EmailTemplate> {
  const row = await findTemplate(db, orgId, id);
  if (row.version > 0 && isTemplateType(row.status_id)) {
    const shipped = shippedTemplates[row.status_id];
    await db.transaction(async (tx) => {
      await tx
        .update(emailTemplates)
        .set({ ...shipped })
        .where(eq(emailTemplates.id, row.id));
      await recordTemplateChange(tx, by, orgId, row, 'reset');
    });
  }
  return getTemplate(db, orgId, id);
}

/**
 * POST preview-template: the template as a donor of this organization would receive it, with a
 * sample match (the variables filled with example values, the organization's own details real).
 */
export async function previewTemplate(
  db: Queryable,
  orgId: number,
  body: TemplateBody & { stage?: TemplateStage | undefined },
  links: { publicUrl: string; supportEmail: string },
): Promise<string> {
  const texts = bodyTexts(body);
  checkVariables(texts);
  const [org] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  if (!org) throw new HttpError(404, `Organization with id ${orgId} not found`);
  const example = `${links.publicUrl}/portal/faq`;
  const mail = await renderDonorEmail({
    to: 'donor@example.org',
    texts,
    stage: body.stage ?? 1,
    values: sampleValues(org),
    links: {
      confirm: `${example}#confirm`,
      decline: `${example}#decline`,
      unsubscribe: `${example}#unsubscribe`,
      faq: example,
      companyUrl: null,
      openPixel: null,
    },
    supportEmail: links.supportEmail,
  });
  return mail.html;
}
