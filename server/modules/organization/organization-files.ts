import { and, asc, count, eq } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { PermissionLevel } from '../../../src/contract/access.ts';
import { type OrganizationResponse, organizationNotFound } from '../../../src/contract/organization.ts';
import { logoTypeMessage, maxDocuments } from '../../../src/contract/users.ts';
import { documents, organizations } from '../../db/schema.ts';
import { attachment, fileNamePart } from '../../http/attachment.ts';
import { HttpError } from '../../http/errors.ts';
import type { Deps } from '../../http/route.ts';
import { type StoredType, sniff, storedNamePattern } from '../../storage/storage.ts';
import { getOrganization, organizationDocuments } from './organization.service.ts';

export const fileMessages = {
  logoTooLarge: 'The file is too large (at most 2 MB).',
  documentTooLarge: 'The file is too large (at most 10 MB).',
  documentType: 'Please select a PDF, PNG or JPG file',
  tooManyDocuments: `An organization can have at most ${maxDocuments} documents.`,
  documentName: 'Document name is required',
  documentNotFound: 'Document not found',
  fileRequired: 'Please choose a file',
} as const;

export const logoMaxBytes = 2 * 1024 * 1024;
export const documentMaxBytes = 10 * 1024 * 1024;

/** The public URL path of a stored logo, and back. */
export const logoPath = (name: string) => `/files/${name}`;
const storedNameOf = (path: string | null) => {
  const name = path?.startsWith('/files/') ? path.slice('/files/'.length) : undefined;
  return name && storedNamePattern.test(name) ? name : undefined;
};

/**
 * spec: "multipart: file, name, and type=logo when name is logo, else file_id" (the document to
 * replace).
 */
export const UploadForm = z.object({
  file: z.custom<File>((value) => value instanceof File, fileMessages.fileRequired),
  name: z.optional(
    z.string().check(z.trim(), z.maxLength(100, 'Document name must be at most 100 characters')),
  ),
  type: z.optional(z.string()),
  file_id: z.optional(
    z.pipe(
      z.string().check(z.regex(/^[0-9]{1,10}$/, 'Expected a positive whole number')),
      z.transform((v: string) => Number(v)),
    ),
  ),
});
export type UploadForm = z.infer<typeof UploadForm>;

export type UploadResult = Pick<OrganizationResponse['organization'], 'documents' | 'file_logo'>;

async function uploadResult(deps: Deps, orgId: number): Promise<UploadResult> {
  const [row] = await deps.db
    .select({ file_logo: organizations.file_logo })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return { documents: await organizationDocuments(deps.db, orgId), file_logo: row?.file_logo ?? null };
}

/**
 * Stores the bytes, then runs `write` in a transaction. If the transaction fails the stored file
 * is removed again; when it commits, the file it replaced (if any) is removed.
 */
async function storeThenWrite(
  deps: Deps,
  bytes: Uint8Array,
  type: StoredType,
  write: (name: string) => Promise<string | undefined>,
): Promise<void> {
  const name = await deps.storage.put(bytes, type);
  let replaced: string | undefined;
  try {
    replaced = await write(name);
  } catch (error) {
    await deps.storage.remove(name);
    throw error;
  }
  if (replaced) await deps.storage.remove(replaced);
}

/** POST /api/organization/{id}/upload: the logo, or a new or replacing document. */
export async function upload(deps: Deps, orgId: number, form: UploadForm): Promise<UploadResult> {
  const isLogo = form.type === 'logo';
  const maxBytes = isLogo ? logoMaxBytes : documentMaxBytes;
  if (form.file.size > maxBytes)
    throw new HttpError(413, isLogo ? fileMessages.logoTooLarge : fileMessages.documentTooLarge);
  const bytes = new Uint8Array(await form.file.arrayBuffer());
  // spec: PNG and JPG only, recognised by the bytes, not the file name or the browser's type.
  const type = sniff(bytes);
  if (isLogo) {
    if (type !== 'image/png' && type !== 'image/jpeg') throw new HttpError(400, logoTypeMessage);
    await storeThenWrite(deps, bytes, type, (name) =>
      deps.db.transaction(async (tx) => {
        const [row] = await tx
          .select({ file_logo: organizations.file_logo })
          .from(organizations)
          .where(eq(organizations.id, orgId))
          .for('update');
        if (!row) throw new HttpError(404, organizationNotFound(orgId));
        await tx
          .update(organizations)
          .set({ file_logo: logoPath(name) })
          .where(eq(organizations.id, orgId));
        return storedNameOf(row.file_logo);
      }),
    );
    return uploadResult(deps, orgId);
  }
  const documentName = form.name ?? '';
  if (!documentName) throw new HttpError(400, `name: ${fileMessages.documentName}`);
  if (!type) throw new HttpError(400, fileMessages.documentType);
  await storeThenWrite(deps, bytes, type, (name) =>
    deps.db.transaction(async (tx) => {
      // The organization row is the lock that keeps two uploads from passing the limit together.
      const [org] = await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, orgId))
        .for('update');
      if (!org) throw new HttpError(404, organizationNotFound(orgId));
      if (form.file_id !== undefined) {
        const [old] = await tx
          .select({ file: documents.file })
          .from(documents)
          .where(and(eq(documents.id, form.file_id), eq(documents.org_id, orgId)));
        if (!old) throw new HttpError(404, fileMessages.documentNotFound);
        await tx
          .update(documents)
          .set({ name: documentName, file: name, content_type: type, created_at: new Date() })
          .where(eq(documents.id, form.file_id));
        return old.file;
      }
      const [held] = await tx.select({ n: count() }).from(documents).where(eq(documents.org_id, orgId));
      if ((held?.n ?? 0) >= maxDocuments) throw new HttpError(400, fileMessages.tooManyDocuments);
      await tx
        .insert(documents)
        .values({ org_id: orgId, name: documentName, file: name, content_type: type });
      return undefined;
    }),
  );
  return uploadResult(deps, orgId);
}

/** DELETE /api/organization/{id}/document/{docId}: the row, then (after commit) its file. */
export async function removeDocument(
  deps: Deps,
  orgId: number,
  documentId: number,
  level: PermissionLevel,
): Promise<OrganizationResponse> {
  const [removed] = await deps.db
    .delete(documents)
    .where(and(eq(documents.id, documentId), eq(documents.org_id, orgId)))
    .returning({ file: documents.file });
  if (!removed) throw new HttpError(404, fileMessages.documentNotFound);
  await deps.storage.remove(removed.file);
  return getOrganization(deps.db, orgId, level);
}

const extensions: Record<StoredType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/pdf': 'pdf',
};

/** Serves stored bytes as their sniffed type, never as something a browser would guess. */
function fileResponse(
  bytes: Uint8Array<ArrayBuffer>,
  type: StoredType,
  headers: Record<string, string>,
): Response {
  return new Response(bytes, {
    headers: { 'content-type': type, 'x-content-type-options': 'nosniff', ...headers },
  });
}

/** GET /api/organization/{id}/document/{docId}/file: for callers who can read the organization. */
export async function documentFile(deps: Deps, orgId: number, documentId: number): Promise<Response> {
  const [row] = await deps.db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.org_id, orgId)))
    .orderBy(asc(documents.id));
  const stored = row ? await deps.storage.get(row.file) : undefined;
  if (!row || !stored) throw new HttpError(404, fileMessages.documentNotFound);
  const filename = `${fileNamePart(row.name, 'document')}.${extensions[stored.contentType]}`;
  return fileResponse(stored.bytes, stored.contentType, {
    'content-disposition': attachment(filename),
    'cache-control': 'private, no-store',
  });
}

/** GET /files/{name}: organization logos are public (the sidebar, partners' pages). */
export async function publicFile(deps: Deps, name: string): Promise<Response> {
  const notFound = new HttpError(404, 'Not found');
  if (!storedNamePattern.test(name)) throw notFound;
  const [owner] = await deps.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.file_logo, logoPath(name)))
    .limit(1);
  const stored = owner ? await deps.storage.get(name) : undefined;
  if (!stored) throw notFound;
  // Names are random and never reused: the bytes behind one never change.
  return fileResponse(stored.bytes, stored.contentType, {
    'cache-control': 'public, max-age=31536000, immutable',
  });
}
