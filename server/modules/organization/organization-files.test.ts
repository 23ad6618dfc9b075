import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import { documents, organizations } from '../../db/schema.ts';
import { memoryStorage } from '../../storage/storage.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
let app: ReturnType<typeof createApp>['app'];
const storage = memoryStorage();
let hope = 0;
let maple = 0;
const tokens: Record<string, string> = {};

const png = (size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
};
const jpeg = () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const pdf = () => new TextEncoder().encode('%PDF-1.7\n1 0 obj\n');

beforeAll(async () => {
  t = await createTestContext();
  // The same database, with files kept in memory so the test can see what is stored.
  app = createApp({ config: t.config, db: t.db, storage, logger: t.logger }).app;
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  maple = demo.mapleStreet;
  for (const who of ['admin', 'writer', 'reader']) tokens[who] = await signIn(t.app, `${who}@twofold.test`);
});
afterAll(() => t.close());

async function upload(
  orgId: number,
  who: string,
  parts: {
    bytes?: Uint8Array;
    filename?: string;
    mime?: string;
    name?: string;
    type?: string;
    file_id?: string;
  },
) {
  const form = new FormData();
  if (parts.bytes)
    form.set(
      'file',
      new File([new Uint8Array(parts.bytes)], parts.filename ?? 'upload.bin', {
        type: parts.mime ?? 'application/octet-stream',
      }),
    );
  if (parts.name !== undefined) form.set('name', parts.name);
  if (parts.type !== undefined) form.set('type', parts.type);
  if (parts.file_id !== undefined) form.set('file_id', parts.file_id);
  const res = await app.request(`/api/organization/${orgId}/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${tokens[who]}` },
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), headers: res.headers };
}

const logo = (orgId: number, bytes: Uint8Array, filename = 'logo.png', who = 'writer') =>
  upload(orgId, who, { bytes, filename, mime: 'image/png', name: 'logo', type: 'logo' });

describe('POST /api/organization/{id}/upload (logo)', () => {
  it('stores a PNG or JPG logo, serves it publicly with its type, and removes the one it replaces', async () => {
    const first = await logo(hope, png());
    expect(first.status).toBe(200);
    expect(first.json.file_logo).toMatch(/^\/files\/[\w-]{32}\.png$/);
    expect(first.json.documents).toEqual([]);
    const served = await app.request(first.json.file_logo);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png());

    const second = await logo(hope, jpeg(), 'photo.jpg');
    expect(second.json.file_logo).toMatch(/\.jpg$/);
    expect((await app.request(first.json.file_logo)).status).toBe(404);
    expect(storage.names()).not.toContain(first.json.file_logo.slice('/files/'.length));
    expect((await app.request(second.json.file_logo)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('refuses a text file named .png and a PDF as logo, changing nothing', async () => {
    const before = (await t.db.select().from(organizations).where(eq(organizations.id, hope)))[0]?.file_logo;
    const stored = storage.names().length;
    for (const bytes of [new TextEncoder().encode('just text'), pdf()]) {
      const res = await logo(hope, bytes, 'evil.png');
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ message: 'Please select a PNG or JPG file' });
    }
    expect((await t.db.select().from(organizations).where(eq(organizations.id, hope)))[0]?.file_logo).toBe(
      before,
    );
    expect(storage.names().length).toBe(stored);
  });

  it('refuses a logo over 2 MB with 413', async () => {
    const res = await logo(hope, png(2 * 1024 * 1024 + 1));
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ message: 'The file is too large (at most 2 MB).' });
  });

  it('serves only logos publicly: unknown and document names are 404', async () => {
    expect((await app.request('/files/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect((await app.request(`/files/${'a'.repeat(32)}.png`)).status).toBe(404);
  });
});

describe('POST /api/organization/{id}/upload (documents)', () => {
  it('adds documents (PDF, PNG, JPG) up to 5, served only to readers of the organization', async () => {
    const res = await upload(maple, 'admin', { bytes: pdf(), filename: 'w9.pdf', name: ' W-9 form ' });
    expect(res.status).toBe(200);
    const [doc] = res.json.documents;
    expect(doc).toMatchObject({
      name: 'W-9 form',
      file: `/api/organization/${maple}/document/${doc.id}/file`,
    });
    expect(Date.now() - Date.parse(doc.uploaded_date)).toBeLessThan(60_000);
    const file = await app.request(doc.file, { headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new TextDecoder().decode(await file.arrayBuffer())).toContain('%PDF-');
    expect((await app.request(doc.file)).status).toBe(401);
    const outsider = await app.request(doc.file, { headers: { authorization: `Bearer ${tokens.reader}` } });
    expect(outsider.status).toBe(404);
    const stored = (await t.db.select().from(documents).where(eq(documents.id, doc.id)))[0]?.file ?? '';
    expect((await app.request(`/files/${stored}`)).status).toBe(404);

    for (const bytes of [png(), jpeg(), pdf(), pdf()]) {
      expect((await upload(maple, 'admin', { bytes, name: 'Another' })).status).toBe(200);
    }
    const sixth = await upload(maple, 'admin', { bytes: pdf(), name: 'One too many' });
    expect(sixth.status).toBe(400);
    expect(sixth.json).toEqual({ message: 'An organization can have at most 5 documents.' });
    expect(await t.db.select().from(documents).where(eq(documents.org_id, maple))).toHaveLength(5);
  });

  it('downloads a document under its own non-ASCII name (RFC 6266 filename*), with an ASCII fallback', async () => {
    const res = await upload(hope, 'admin', { bytes: pdf(), name: 'Reçu d’impôt "2025" / Zürich' });
    expect(res.status).toBe(200);
    const doc = res.json.documents.find((d: { name: string }) => d.name.startsWith('Reçu'));
    try {
      const file = await app.request(doc.file, { headers: { authorization: `Bearer ${tokens.admin}` } });
      expect(file.status).toBe(200);
      const header = file.headers.get('content-disposition') ?? '';
      // Quotes and the slash (characters file systems refuse) are replaced; the letters are kept.
      expect(header).toBe(
        `attachment; filename="Re?u d?imp?t _2025_ _ Z?rich.pdf"; filename*=UTF-8''Re%C3%A7u%20d%E2%80%99imp%C3%B4t%20_2025_%20_%20Z%C3%BCrich.pdf`,
      );
      const encoded = header.split("filename*=UTF-8''")[1] ?? '';
      expect(decodeURIComponent(encoded)).toBe('Reçu d’impôt _2025_ _ Zürich.pdf');
    } finally {
      await t.db.delete(documents).where(eq(documents.id, doc.id));
    }
  });

  it('replaces a document by file_id, removing the old file', async () => {
    const [old] = await t.db.select().from(documents).where(eq(documents.org_id, maple)).limit(1);
    const res = await upload(maple, 'admin', { bytes: pdf(), name: 'W-9 (2026)', file_id: String(old?.id) });
    expect(res.status).toBe(200);
    expect(res.json.documents).toHaveLength(5);
    expect(res.json.documents.find((d: { id: number }) => d.id === old?.id)?.name).toBe('W-9 (2026)');
    expect(storage.names()).not.toContain(old?.file);
    const foreign = await upload(hope, 'admin', { bytes: pdf(), name: 'x', file_id: String(old?.id) });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ message: 'Document not found' });
  });

  it('wants a name, a file and a known type, and refuses documents over 10 MB', async () => {
    const noName = await upload(hope, 'writer', { bytes: pdf(), name: '  ' });
    expect(noName.json).toEqual({ message: 'name: Document name is required' });
    const noFile = await upload(hope, 'writer', { name: 'x' });
    expect(noFile.status).toBe(400);
    expect(noFile.json).toEqual({ message: 'file: Please choose a file' });
    const text = await upload(hope, 'writer', {
      bytes: new TextEncoder().encode('hello'),
      filename: 'a.pdf',
      name: 'x',
    });
    expect(text.json).toEqual({ message: 'Please select a PDF, PNG or JPG file' });
    const big = await upload(hope, 'writer', {
      bytes: new Uint8Array(10 * 1024 * 1024 + 1).fill(0x25),
      name: 'big',
    });
    expect(big.status).toBe(413);
    expect(big.json).toEqual({ message: 'The file is too large (at most 10 MB).' });
    const json = await call(app, 'POST', `/api/organization/${hope}/upload`, {
      token: tokens.writer,
      body: {},
    });
    expect(json.status).toBe(415);
  });

  it('needs write: a reader is refused and nothing is stored', async () => {
    const stored = storage.names().length;
    const res = await upload(hope, 'reader', { bytes: pdf(), name: 'x' });
    expect(res.status).toBe(403);
    expect(storage.names().length).toBe(stored);
  });

  it('removes the stored file again when the database write fails', async () => {
    await t.db.execute(sql`create function fail_documents() returns trigger language plpgsql as $$
      begin raise exception 'documents are down'; end $$`);
    await t.db.execute(
      sql`create trigger fail_documents before insert on documents for each row execute function fail_documents()`,
    );
    const stored = storage.names().length;
    try {
      const res = await upload(hope, 'writer', { bytes: pdf(), name: 'Doomed' });
      expect(res.status).toBe(500);
    } finally {
      await t.db.execute(sql`drop trigger fail_documents on documents`);
      await t.db.execute(sql`drop function fail_documents()`);
    }
    expect(storage.names().length).toBe(stored);
  });
});

describe('DELETE /api/organization/{id}/document/{docId}', () => {
  it('deletes the document and its file, answering with the organization', async () => {
    const [doc] = await t.db.select().from(documents).where(eq(documents.org_id, maple)).limit(1);
    const res = await call(app, 'DELETE', `/api/organization/${maple}/document/${doc?.id}`, {
      token: tokens.admin,
    });
    expect(res.status).toBe(200);
    expect(res.json.organization.documents.map((d: { id: number }) => d.id)).not.toContain(doc?.id);
    expect(storage.names()).not.toContain(doc?.file);
    const again = await call(app, 'DELETE', `/api/organization/${maple}/document/${doc?.id}`, {
      token: tokens.admin,
    });
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ message: 'Document not found' });
  });

  it('does not delete another organization’s document through this one', async () => {
    const [doc] = await t.db.select().from(documents).where(eq(documents.org_id, maple)).limit(1);
    const res = await call(app, 'DELETE', `/api/organization/${hope}/document/${doc?.id}`, {
      token: tokens.admin,
    });
    expect(res.status).toBe(404);
    expect(
      await t.db
        .select()
        .from(documents)
        .where(eq(documents.id, doc?.id ?? 0)),
    ).toHaveLength(1);
  });
});
