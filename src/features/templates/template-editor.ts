import {
  type EmailTemplate,
  type TemplateStage,
  type TemplateTextField,
  type TemplateTexts,
  templateTextFields,
} from '../../contract/email-templates.ts';

/** The labels of the editor's fields. */
export const fieldLabels: Record<TemplateTextField, string> = {
  subject1: 'Subject',
  subject2: 'Subject',
  subject3: 'Subject',
  preheader1: 'Preheader',
  preheader2: 'Preheader',
  preheader3: 'Preheader',
  header1: 'Header',
  header2: 'Header',
  header3: 'Header',
  greeting: 'Greeting',
  paragraph_one_1: 'Paragraph one',
  paragraph_one_2: 'Paragraph one',
  paragraph_one_3: 'Paragraph one',
  paragraph_two: 'Paragraph two',
  paragraph_three: 'Paragraph three',
  salutation: 'Salutation',
  step_one_title: 'Step one title',
  step_one_text: 'Step one text',
  step_one_note: 'Step one note',
  step_one_btn: 'Step one button (confirm)',
  step_two_title: 'Step two title',
  step_two_text: 'Step two text',
  step_two_note: 'Step two note',
  step_two_btn: 'Step two button (decline)',
};

/** One-line fields; the others are paragraphs. */
export const singleLine = (field: TemplateTextField) =>
  /^(subject|preheader|header|step_.*_(btn|title))/.test(field);

/**
 * spec (section 4): "Greeting, paragraph two, paragraph three, salutation and step fields show
 * only on the initial email tab." Each tab's own subject, preheader, header and paragraph one.
 */
export function fieldsOfStage(stage: TemplateStage): TemplateTextField[] {
  const own: TemplateTextField[] = [`subject${stage}`, `preheader${stage}`, `header${stage}`];
  if (stage > 1) return [...own, `paragraph_one_${stage}`];
  return [
    ...own,
    'greeting',
    'paragraph_one_1',
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
  ];
}

export const textsOf = (t: EmailTemplate): TemplateTexts =>
  Object.fromEntries(templateTextFields.map((f) => [f, t[f]])) as TemplateTexts;

/** Inserts `{{name}}` into a text at the caret (or replacing the selection); returns the text and the new caret. */
export function insertVariable(
  value: string,
  name: string,
  start: number | null,
  end: number | null,
): { value: string; caret: number } {
  const token = `{{${name}}}`;
  const from = start ?? value.length;
  const to = end ?? from;
  return { value: value.slice(0, from) + token + value.slice(to), caret: from + token.length };
}
