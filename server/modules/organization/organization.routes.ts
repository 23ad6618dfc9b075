import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  Document,
  OrganizationResponse,
  OrganizationSearchQuery,
  OrganizationSearchResponse,
} from '../../../src/contract/organization.ts';
import { IdParams, idSegment, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as handlers from './organization.handlers.ts';
import { documentMaxBytes, fileMessages, UploadForm } from './organization-files.ts';
import { PartialBody, PartialQuery } from './organization-update.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['organization'];

const DocumentParams = z.object({ id: idSegment, docId: idSegment });
const UploadResponse = z.object({ documents: z.array(Document), file_logo: z.nullable(z.string()) });

export const organizationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id',
    access: { level: 'read', capability: 'organization.view', org: orgFromIdParam },
    summary: 'An organization with its users, chapters and the organizations reachable from it',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The organization', schema: OrganizationResponse },
      401: error('Not signed in'),
      404: error('Organization with id {id} not found'),
    },
    handler: handlers.get,
  }),
  defineRoute({
    method: 'get',
    path: '/api/search/organization',
    access: 'authenticated',
    summary: 'Search organizations by name (super users: all; others: the ones they reach)',
    tags,
    query: OrganizationSearchQuery,
    responses: {
      200: { description: 'Matching organizations, by name, at most 20', schema: OrganizationSearchResponse },
      401: error('Not signed in'),
    },
    handler: handlers.search,
  }),
  defineRoute({
    method: 'put',
    path: '/api/organization/:id/partial',
    // Each field needs its own capability too (patchFieldCapability): details write, settings admin.
    access: { level: 'write', capability: 'organization.update', org: orgFromIdParam },
    summary: 'Change some fields of an organization (query parameters; the private key in the body)',
    tags,
    params: IdParams,
    query: PartialQuery,
    body: PartialBody,
    bodyKind: 'optional-json',
    responses: {
      200: { description: 'The organization, as GET returns it', schema: OrganizationResponse },
      400: error('Invalid value'),
      403: error('A field needs a higher level'),
      404: error('Organization with id {id} not found'),
      409: error('Delete the existing private key before entering a new one.'),
    },
    handler: handlers.update,
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/upload',
    access: { level: 'write', capability: 'organization.update', org: orgFromIdParam },
    summary:
      'Upload the logo (type=logo; PNG or JPG, 2 MB) or a document (PDF, PNG or JPG, 10 MB, at most 5)',
    tags,
    params: IdParams,
    body: UploadForm,
    bodyKind: 'multipart',
    // The multipart envelope around a 10 MB file needs a little room.
    bodyLimit: { bytes: documentMaxBytes + 64 * 1024, message: fileMessages.documentTooLarge },
    responses: {
      200: { description: 'The documents and the logo', schema: UploadResponse },
      400: error('Not a PNG or JPG (logo) / PDF, PNG or JPG (document), no name, or 5 documents already'),
      404: error('Organization or document not found'),
      413: error('The file is too large'),
    },
    handler: handlers.upload,
  }),
  defineRoute({
    method: 'delete',
    path: '/api/organization/:id/document/:docId',
    access: { level: 'write', capability: 'organization.update', org: orgFromIdParam },
    summary: 'Delete a document and its file',
    tags,
    params: DocumentParams,
    responses: {
      200: { description: 'The organization', schema: OrganizationResponse },
      404: error('Organization or document not found'),
    },
    handler: handlers.removeDocument,
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/document/:docId/file',
    access: { level: 'read', capability: 'organization.view', org: orgFromIdParam },
    summary: "A document's file (documents are not public)",
    tags,
    params: DocumentParams,
    responses: { 200: { description: 'The file, as its sniffed type' }, 404: error('Not found') },
    handler: handlers.documentFile,
  }),
  defineRoute({
    method: 'get',
    path: '/files/:name',
    access: 'anonymous',
    summary: 'An organization logo (public)',
    tags,
    params: z.object({ name: z.string().check(z.maxLength(100)) }),
    responses: { 200: { description: 'The image' }, 404: error('Not found') },
    handler: handlers.publicFile,
  }),
];
