import {
  EmailTemplate,
  type TemplateStage,
  TemplatesResponse,
  type TemplateTexts,
} from '../contract/email-templates.ts';
import { download, request } from './client.ts';

const org = (orgId: number) => `api/organization/${orgId}`;

/** GET /api/organization/{orgId}/mail-templates/{statusId}: the versions, each with stats, Default first. */
export function listTemplates(orgId: number, statusId: number): Promise<TemplatesResponse> {
  return request(TemplatesResponse, `${org(orgId)}/mail-templates/${statusId}`);
}

/** POST /api/organization/{orgId}/template/{id}: save, toggle live, or (id 0) create a version. */
export function saveTemplate(
  orgId: number,
  id: number,
  body: TemplateTexts & { live: boolean; status_id: number; organization_id: number },
): Promise<EmailTemplate> {
  return request(EmailTemplate, `${org(orgId)}/template/${id}`, { method: 'post', json: body });
}

/** POST /api/organization/{orgId}/preview-template: the rendered HTML, as a file to open. */
export function previewTemplate(
  orgId: number,
  body: TemplateTexts & { status_id: number; stage: TemplateStage },
): Promise<Blob> {
  return download(`${org(orgId)}/preview-template`, { method: 'post', json: body });
}
