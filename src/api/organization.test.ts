import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyOrganization } from '../contract/index.ts';
import { fakeJwt, jsonResponse, MemoryStorage } from '../state/testing.ts';

const realFetch = globalThis.fetch;
const answer = {
  organization: { ...emptyOrganization, id: 5, name: 'Hope' },
  accessibleOrganizations: [],
  level: 'admin',
};

interface Seen {
  method: string;
  url: URL;
  contentType: string | null;
  text: string;
  form: FormData | null;
}

async function load(respond: (seen: Seen) => Response) {
  vi.resetModules();
  const storage = new MemoryStorage();
  storage.setItem('auth_token', fakeJwt({ sub: '7', exp: Date.now() / 1000 + 3600 }));
  vi.stubGlobal('localStorage', storage);
  const seen: Seen[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const contentType = req.headers.get('content-type');
    const multipart = contentType?.startsWith('multipart/form-data') ?? false;
    const entry: Seen = {
      method: req.method,
      url: new URL(req.url),
      contentType,
      form: multipart ? await req.formData() : null,
      text: multipart ? '' : await req.text(),
    };
    seen.push(entry);
    return respond(entry);
  };
  const client = await import('./client.ts');
  client.setApiBase('http://api.test');
  const api = { ...(await import('./organization.ts')), ...(await import('./organization-changes.ts')) };
  return { api, seen };
}

beforeEach(() => {
  globalThis.fetch = realFetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  vi.unstubAllGlobals();
});

describe('the organization API', () => {
  it('sends a partial update as query parameters, and the private key only in the body', async () => {
    const { api, seen } = await load(() => jsonResponse(200, answer));
    await api.updateOrganization(5, { phone: '555', category_id_array: [1, 2], private_key: 'sk_1' });
    const [call] = seen;
    expect(call?.method).toBe('PUT');
    expect(call?.url.pathname).toBe('/api/organization/5/partial');
    expect(call?.url.searchParams.get('phone')).toBe('555');
    expect(call?.url.searchParams.get('category_id_array')).toBe('[1,2]');
    expect(call?.url.search).not.toContain('sk_1');
    expect(JSON.parse(call?.text ?? '')).toEqual({ private_key: 'sk_1' });
  });

  it('sends no body when the private key is untouched', async () => {
    const { api, seen } = await load(() => jsonResponse(200, answer));
    await api.updateOrganization(5, { complete: true });
    expect(seen[0]?.url.searchParams.get('complete')).toBe('true');
    expect(seen[0]?.text).toBe('');
  });

  it('uploads a logo as multipart with name and type logo', async () => {
    const { api, seen } = await load(() => jsonResponse(200, { documents: [], file_logo: '/files/a.png' }));
    const file = new File([new Uint8Array([0x89, 0x50])], 'logo.png', { type: 'image/png' });
    const result = await api.uploadFile(5, { kind: 'logo', file });
    expect(result.file_logo).toBe('/files/a.png');
    const form = seen[0]?.form;
    expect(form?.get('name')).toBe('logo');
    expect(form?.get('type')).toBe('logo');
    expect(form?.get('file')).toBeInstanceOf(File);
  });

  it('uploads a document with its name, and file_id only when replacing', async () => {
    const { api, seen } = await load(() => jsonResponse(200, { documents: [], file_logo: null }));
    const file = new File(['%PDF'], 'irs.pdf', { type: 'application/pdf' });
    await api.uploadFile(5, { kind: 'document', file, name: 'IRS letter' });
    await api.uploadFile(5, { kind: 'document', file, name: 'IRS letter', replaces: 9 });
    expect(seen[0]?.form?.get('name')).toBe('IRS letter');
    expect(seen[0]?.form?.has('type')).toBe(false);
    expect(seen[0]?.form?.has('file_id')).toBe(false);
    expect(seen[1]?.form?.get('file_id')).toBe('9');
  });

  it("passes the server's message on, e.g. removing the last admin", async () => {
    const { api, seen } = await load(() =>
      jsonResponse(409, { message: 'An organization needs at least one admin.' }),
    );
    await expect(api.removePermission({ org_id: 5, user_id: 7 })).rejects.toThrow(
      'An organization needs at least one admin.',
    );
    expect(seen[0]?.method).toBe('DELETE');
    expect(JSON.parse(seen[0]?.text ?? '')).toEqual({ org_id: 5, user_id: 7 });
  });

  it('reads notifees from /api/organization/{id}/notifee', async () => {
    const { api, seen } = await load(() => jsonResponse(200, { notifees: [{ id: 1, email: 'a@b.test' }] }));
    expect(await api.addNotifee(5, 'a@b.test')).toEqual([{ id: 1, email: 'a@b.test' }]);
    expect(seen[0]?.url.pathname).toBe('/api/organization/5/notifee');
    expect(JSON.parse(seen[0]?.text ?? '')).toEqual({ email: 'a@b.test' });
  });
});
