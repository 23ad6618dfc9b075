import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  EmailTemplate,
  TemplateBody,
  TemplatesResponse,
  templateTexts,
} from '../../../src/contract/email-templates.ts';
import { idSegment, maxId } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { auditBy } from '../audit/audit.ts';
import { actionPage, actionQuestions, expiredLink, performAction } from './actions.ts';
import { emailActions, readActionToken } from './links.ts';
import * as templates from './templates.service.ts';

const tags = ['email templates'];
const error = (description: string) => ({ description, schema: MessageResponse });

/** A path segment that may be 0 (template/0 creates a version). */
const idOrZero = z
  .pipe(z.string().check(z.regex(/^[0-9]{1,10}$/, 'Expected a whole number')), z.transform(Number))
  .check(z.refine((n) => n <= maxId, 'Expected a whole number'));

const OrgParams = z.object({ orgId: idSegment });
const TemplateParams = z.object({ orgId: idSegment, id: idSegment });
const SaveParams = z.object({ orgId: idSegment, id: idOrZero });
const org = (input: { params: { orgId: number } }) => input.params.orgId;

const PreviewBody = z.object({
  ...TemplateBody.shape,
  /** Which email of the sequence: 1 initial, 2 the 1st reminder, 3 the 2nd. */
  stage: z.optional(z.union([z.literal(1), z.literal(2), z.literal(3)])),
});

/** spec (section 7, Email templates): the calls of the template editor, at the spec's paths. */
export const templatesRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:orgId/mail-templates/:statusId',
    access: { level: 'read', capability: 'organization.view', org },
    summary: "An email template's versions, each with its stats, Default first",
    tags,
    params: z.object({ orgId: idSegment, statusId: idSegment }),
    responses: {
      200: { description: 'The versions', schema: TemplatesResponse },
      404: error(templateTexts.unknownType),
    },
    handler: ({ deps, params }) => templates.listTemplates(deps.db, params.orgId, params.statusId),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:orgId/template/:id',
    access: { level: 'read', capability: 'organization.view', org },
    summary: 'One template version, with its stats',
    tags,
    params: TemplateParams,
    responses: {
      200: { description: 'The version', schema: EmailTemplate },
      404: error(templateTexts.notFound),
    },
    handler: ({ deps, params }) => templates.getTemplate(deps.db, params.orgId, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:orgId/template/:id',
    access: { level: 'write', capability: 'templates.change', org },
    summary:
      'Save a template version (texts and live); id 0 creates a version of body.status_id (a copy, live false)',
    tags,
    params: SaveParams,
    body: TemplateBody,
    responses: {
      200: { description: 'The saved version', schema: EmailTemplate },
      400: error('Unknown variable {{name}} in field'),
      404: error(templateTexts.notFound),
      409: error(`${templateTexts.defaultReadOnly} / ${templateTexts.tooMany}`),
    },
    handler: (ctx) =>
      templates.saveTemplate(ctx.deps.db, ctx.params.orgId, ctx.params.id, ctx.body, auditBy(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:orgId/template/:id/reset',
    access: { level: 'write', capability: 'templates.change', org },
    summary: "A template version's texts back to the shipped Default",
    tags,
    params: TemplateParams,
    responses: {
      200: { description: 'The version', schema: EmailTemplate },
      404: error(templateTexts.notFound),
    },
    handler: (ctx) => templates.resetTemplate(ctx.deps.db, ctx.params.orgId, ctx.params.id, auditBy(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:orgId/preview-template',
    access: { level: 'read', capability: 'organization.view', org },
    summary: 'The HTML of a template as a donor would receive it, with an example match',
    tags,
    params: OrgParams,
    body: PreviewBody,
    responses: {
      200: { description: 'The rendered HTML (text/html)' },
      400: error('Unknown variable {{name}} in field'),
    },
    handler: async ({ deps, params, body }) => {
      const html = await templates.previewTemplate(deps.db, params.orgId, body, deps.config);
      return new Response(html, {
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store, private' },
      });
    },
  }),
];

const ActionParams = z.object({ action: z.enum(emailActions) });
const ActionQuery = z.object({ t: z.optional(z.string()) });
const invalidLink = {
  title: 'Link not valid',
  message: 'This link is incomplete or was changed. Please use the button in your email.',
};
const page = (html: string, status = 200) =>
  new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store, private' },
  });

/**
 * The signed links of a donor email (confirm, decline, unsubscribe). GET shows a page with one
 * button, so a mail scanner that follows links changes nothing; the button (and a mail client's
 * RFC 8058 one-click unsubscribe) POSTs to the same address and the page says what happened.
 */
export const emailActionRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/email/:action',
    access: 'anonymous',
    summary: "A donor email's confirm, decline or unsubscribe link (?t={signed token}): the page that asks",
    tags,
    params: ActionParams,
    query: ActionQuery,
    rateLimit: { bucket: 'email-action', ipFactor: 10 },
    responses: {
      200: { description: 'An HTML page' },
      400: { description: 'An HTML page: link not valid' },
      410: {
        description: 'An HTML page: a confirm or decline link past its lifetime (unsubscribe never expires)',
      },
    },
    handler: async ({ deps, params, query }) => {
      const read = readActionToken(deps.config.jwtSecret, query.t ?? '');
      if (!read || read.action !== params.action) return page(actionPage(invalidLink), 400);
      const expired = await expiredLink(deps.db, read.notificationId, read.action, deps.clock.now());
      if (expired) return page(actionPage(expired), 410);
      const q = actionQuestions[read.action];
      const self = `/api/email/${read.action}?t=${encodeURIComponent(query.t ?? '')}`;
      return page(actionPage({ title: q.title, message: q.message, form: { action: self, label: q.label } }));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/email/:action',
    access: 'anonymous',
    summary: "A donor email's confirm, decline or unsubscribe (one-click): does it once, says what happened",
    tags,
    params: ActionParams,
    query: ActionQuery,
    rateLimit: { bucket: 'email-action', ipFactor: 10 },
    responses: {
      200: { description: 'An HTML page' },
      400: { description: 'An HTML page: link not valid' },
      410: {
        description: 'An HTML page: a confirm or decline link past its lifetime (unsubscribe never expires)',
      },
    },
    handler: async ({ deps, params, query }) => {
      const read = readActionToken(deps.config.jwtSecret, query.t ?? '');
      if (!read || read.action !== params.action) return page(actionPage(invalidLink), 400);
      const expired = await expiredLink(deps.db, read.notificationId, read.action, deps.clock.now());
      if (expired) return page(actionPage(expired), 410);
      const outcome = await performAction(deps.db, read.notificationId, read.action, deps.clock.now());
      return page(actionPage(outcome));
    },
  }),
];
