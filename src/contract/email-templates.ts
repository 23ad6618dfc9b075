import * as z from 'zod/mini';

/**
 * spec (section 3, Email template): "Template types by status_id: 7 CSR vendor portal; 8 manual
 * email matching; 9 policy incomplete; 10 below minimum; 11 against policy; 23 match requested
 * without company name; 19 no matching program; 24 donor opt-in; 15 direct debit only; 102 match
 * deadline approaching." The ten cards of /portal/email-templates, in the spec's order.
 */
export const templateCards = [
  { status_id: 7, name: 'CSR vendor portal' },
  { status_id: 8, name: 'Manual email matching' },
  { status_id: 9, name: 'Policy incomplete' },
  { status_id: 10, name: 'Below minimum' },
  { status_id: 11, name: 'Against policy' },
  { status_id: 23, name: 'Match requested without company name' },
  { status_id: 19, name: 'No matching program' },
  { status_id: 24, name: 'Donor opt-in' },
  { status_id: 15, name: 'Direct debit only' },
  { status_id: 102, name: 'Match deadline approaching' },
] as const;

/**
 * Every template type the store holds: the ten cards, plus 6 (original signature) and 25 (donor
 * e-sign), which the spec names as reminder tabs ("Tabs Initial Email, 1st Reminder, 2nd Reminder
 * appear only for template ids 6, 7, 8 and 25") and whose donors are emailed too.
 */
export const templateTypeIds = [6, 7, 8, 9, 10, 11, 15, 19, 23, 24, 25, 102] as const;
export type TemplateTypeId = (typeof templateTypeIds)[number];

/** spec: "reminder tabs for ids 6, 7, 8, 25". */
export const reminderTemplateIds: ReadonlySet<number> = new Set([6, 7, 8, 25]);

/** spec (section 4): "The first version is Default and always live. Others are labelled A to G." */
export const versionLabels = ['Default', 'A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
/** spec: "At most 5 versions; the + button is hidden once there are 5." */
export const maxTemplateVersions = 5;

/** spec (section 3): "Variables usable in text". */
export const templateVariables = [
  'donor_first_name',
  'donor_last_name',
  'donor_full_name',
  'donation_transaction_id',
  'donation_date',
  'campaign_name',
  'campaign_msg',
  'receiving_org_name',
  'receiving_org_ein',
  'receiving_org_email',
  'receiving_org_website',
  'receiving_org_mission',
  'receiving_org_logo',
  'matching_employer_name',
  'matching_employer_min_match',
  'matching_employer_max_match',
  'matching_employer_contact_email',
  'matching_employer_vendor',
  'missing_policy_block',
] as const;
export type TemplateVariable = (typeof templateVariables)[number];

/** The text fields of a template version (spec section 3), in the editor's order. */
export const templateTextFields = [
  'subject1',
  'subject2',
  'subject3',
  'preheader1',
  'preheader2',
  'preheader3',
  'header1',
  'header2',
  'header3',
  'greeting',
  'paragraph_one_1',
  'paragraph_one_2',
  'paragraph_one_3',
  'paragraph_two',
  'paragraph_three',
  'salutation',
  'step_one_title',
  'step_one_text',
  'step_one_note',
  'step_one_btn',
  'step_two_title',
  'step_two_text',
  'step_two_note',
  'step_two_btn',
] as const;
export type TemplateTextField = (typeof templateTextFields)[number];
export type TemplateTexts = Record<TemplateTextField, string>;

/** Which email of a template's sequence: the initial email, the 1st or the 2nd reminder. */
export type TemplateStage = 1 | 2 | 3;

/** The longest text a field takes: subjects and preheaders are one line, the rest a paragraph. */
export const fieldMaxLength = (field: TemplateTextField) =>
  /^(subject|preheader|header|step_.*_btn|step_.*_title)/.test(field) ? 300 : 5000;

const text = /* @__NO_SIDE_EFFECTS__ */ (field: TemplateTextField) =>
  z.string().check(z.maxLength(fieldMaxLength(field), `${field} is too long`));

/** The editable texts, as the editor sends them (missing ones count as empty). */
const textShape = Object.fromEntries(templateTextFields.map((f) => [f, z._default(text(f), '')])) as {
  [K in TemplateTextField]: z.ZodMiniDefault<z.ZodMiniString<string>>;
};

export const TemplateStats = z.object({
  sent: z.number(),
  opened: z.number(),
  confirm_clicked: z.number(),
  decline_clicked: z.number(),
  r1_sent: z.number(),
  r1_opened: z.number(),
  r1_confirm_clicked: z.number(),
  r2_sent: z.number(),
  r2_opened: z.number(),
  r2_confirm_clicked: z.number(),
});
export type TemplateStats = z.infer<typeof TemplateStats>;

/** A template version as the server answers it. */
const stringShape = Object.fromEntries(templateTextFields.map((f) => [f, z.string()])) as {
  [K in TemplateTextField]: z.ZodMiniString<string>;
};

export const EmailTemplate = z.object({
  id: z.number(),
  organization_id: z.number(),
  status_id: z.number(),
  /** 0 is Default; 1.. are A, B, ... */
  version: z.number(),
  label: z.string(),
  live: z.boolean(),
  stats: TemplateStats,
  ...stringShape,
});
export type EmailTemplate = z.infer<typeof EmailTemplate>;

/**
 * POST /api/organization/{orgId}/template/{id} and /preview-template: "full template as body".
 * Fields the server owns (stats, label, version) may come along and are ignored.
 */
export const TemplateBody = z.object({
  ...textShape,
  live: z.optional(z.boolean()),
  status_id: z.optional(z.number().check(z.int())),
  organization_id: z.optional(z.number().check(z.int())),
});
export type TemplateBody = z.infer<typeof TemplateBody>;

/** A significance test between the confirm rates of two versions (src/contract/ab-test.ts). */
export const VersionComparison = z.object({
  /** The two versions' ids. */
  a: z.number(),
  b: z.number(),
  /** null: 'not enough data yet'. */
  p_value: z.nullable(z.number()),
  significant: z.boolean(),
  message: z.string(),
});
export type VersionComparison = z.infer<typeof VersionComparison>;

/** spec: "templates (each with stats)"; comparisons: each pair of versions that sent emails. */
export const TemplatesResponse = z.object({
  templates: z.array(EmailTemplate),
  comparisons: z.array(VersionComparison),
});
export type TemplatesResponse = z.infer<typeof TemplatesResponse>;

/** spec: "Template stats percentages are shown to 1 decimal." */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return '0.0%';
  return `${((part / whole) * 100).toFixed(1)}%`;
}

/** The variable names a text uses (`{{ name }}`), in order of appearance. */
export function variablesIn(value: string): string[] {
  return [...value.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map((m) => m[1] ?? '');
}

const known: ReadonlySet<string> = new Set(templateVariables);

/** The first unknown `{{variable}}` of a template's texts, with its field, or null. */
export function unknownVariable(texts: Partial<TemplateTexts>): { field: string; name: string } | null {
  for (const field of templateTextFields) {
    for (const name of variablesIn(texts[field] ?? '')) if (!known.has(name)) return { field, name };
  }
  return null;
}

/** The texts of the spec's toasts and the server's refusals. */
export const templateTexts = {
  loadFailed: 'Failed to load email templates',
  updateFailed: 'Failed to update template',
  saveFailed: 'Failed to save template',
  createFailed: 'Failed to create template version',
  previewFailed: 'Failed to preview template',
  enabled: 'Template enabled',
  disabled: 'Template disabled',
  saved: 'Template saved successfully',
  created: 'New template version created',
  noOrganization: 'Please Select an Organization From above',
  notFound: 'Template not found',
  unknownType: 'Unknown template type',
  defaultReadOnly: 'The Default version cannot be changed; create a new version to customise it.',
  tooMany: `A template has at most ${maxTemplateVersions} versions.`,
  unknownVariable: (name: string, field: string) => `Unknown variable {{${name}}} in ${field}`,
} as const;
