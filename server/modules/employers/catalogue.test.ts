import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { identifyEmployer } from './identify.ts';

let t: TestContext;
const tokens = { super: '', admin: '' };
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  tokens.super = await signIn(t.app, 'super@twofold.test');
  tokens.admin = await signIn(t.app, 'admin@twofold.test');
});
afterAll(() => t.close());

type Detail = { id: number; name: string; domains: string[]; aliases: string[]; parent_id: number | null };
const company = async (name: string) => {
  const list = await call(t.app, 'GET', `/api/companies?q=${encodeURIComponent(name)}`, {
    token: tokens.admin,
  });
  const found = (list.json.companies as Detail[]).find((c) => c.name === name);
  if (!found) throw new Error(`no company ${name}`);
  return found;
};
const save = async (c: Detail, change: Partial<Detail>) => {
  const { id: _id, name: _name, ...programme } = c as Detail & Record<string, unknown>;
  return call(t.app, 'PUT', `/api/companies/${c.id}`, {
    token: tokens.super,
    body: { ...programme, ...change },
  });
};

describe('the catalogue learns how companies are written', () => {
  it("lists each company's domains and aliases, the demo's from its url and initials", async () => {
    expect(await company('Acme Analytics')).toMatchObject({
      domains: ['acme-analytics.example.com'],
      aliases: ['AA Analytics'],
      parent_id: null,
    });
  });

  it('a super user edits domains, aliases and the parent, with history, and the identification uses them', async () => {
    const keystone = await company('Keystone Media');
    const parent = await company('Keystone Energy');
    const res = await save(keystone, {
      domains: ['keystone-media.example.com', 'WWW.KMedia.example.org'],
      aliases: ['KM', 'Keystone Broadcasting'],
      parent_id: parent.id,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.company).toMatchObject({
      domains: ['keystone-media.example.com', 'kmedia.example.org'],
      aliases: ['Keystone Broadcasting', 'KM'],
      parent_id: parent.id,
    });
    expect(res.json.history[0].changes.map((c: { field: string }) => c.field)).toEqual([
      'domains',
      'aliases',
      'parent_id',
    ]);
    const byAlias = await identifyEmployer(t.db, { employer: 'Keystone Broadcasting' });
    expect(byAlias).toMatchObject({ company_id: parent.id, method: 'alias' });
    expect(byAlias.reason).toBe(
      "alias 'Keystone Broadcasting' of Keystone Media (part of Keystone Energy, whose program matches it)",
    );
    const byDomain = await identifyEmployer(t.db, { email: 'jo@kmedia.example.org' });
    expect(byDomain.company_id).toBe(parent.id);
    // Saving the same again changes nothing.
    const again = await save(await company('Keystone Media'), {});
    expect(again.json.message).toBe('Nothing changed.');
  });

  it('refuses free-mail domains, a domain of another company, and parents more than one level deep', async () => {
    const birch = await company('Birch Media');
    for (const [change, message] of [
      [{ domains: ['gmail.com'] }, 'gmail.com is a free-mail or ISP domain: it names no employer.'],
      [
        { domains: ['acme-analytics.example.com'] },
        "The domain acme-analytics.example.com is already Acme Analytics's.",
      ],
      [{ parent_id: birch.id }, 'A company cannot be its own parent.'],
      [
        { parent_id: (await company('Keystone Media')).id },
        'Keystone Media is itself a subsidiary: choose its parent instead.',
      ],
    ] as const) {
      const res = await save(birch, change as Partial<Detail>);
      expect(res.status).toBe(400);
      expect(res.json.message).toBe(message);
    }
    const unchanged = await company('Birch Media');
    expect(unchanged.domains).toEqual(['birch-media.example.com']);
    expect((await save(birch, { domains: ['not a domain'] })).status).toBe(400);
  });

  it('staff suggest domains and aliases through the suggestions queue; accepting applies them', async () => {
    const tide = await company('Tidewater Foods');
    const suggested = await call(t.app, 'POST', `/api/companies/${tide.id}/suggestions`, {
      token: tokens.admin,
      body: { proposed: { aliases: ['TW Foods', 'Tidewater Kitchens'] }, note: 'Their new brand' },
    });
    expect(suggested.status, suggested.text).toBe(201);
    const accepted = await call(
      t.app,
      'POST',
      `/api/company-suggestions/${suggested.json.suggestion_id}/accept`,
      {
        token: tokens.super,
      },
    );
    expect(accepted.status, accepted.text).toBe(200);
    expect((await company('Tidewater Foods')).aliases).toEqual(['Tidewater Kitchens', 'TW Foods']);
    expect((await identifyEmployer(t.db, { employer: 'Tidewater Kitchens' })).company_name).toBe(
      'Tidewater Foods',
    );
  });
});
