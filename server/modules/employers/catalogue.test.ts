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

describe('the catalogue as a CSV or XLSX file', () => {
  const upload = async (name: string, body: BlobPart, token = tokens.super) => {
    const form = new FormData();
    form.set('file', new File([body], name));
    const res = await t.app.request('/api/company-catalogue', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const exported = async (format: 'csv' | 'xlsx') => {
    const res = await t.app.request(`/api/company-catalogue?format=${format}`, {
      headers: { authorization: `Bearer ${tokens.super}` },
    });
    expect(res.status).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  };

  it('exports the same columns it imports, and importing the export changes nothing (CSV and XLSX)', async () => {
    const csv = new TextDecoder().decode(await exported('csv'));
    expect(csv.split('\n')[0]?.trim()).toBe(
      'name,domains,aliases,parent,program,match_method,verify,match_ratio,minimum_match,maximum_match,deadline_rule,deadline_days,csr_vendor,url,guide,forms_email,forms_address,categories',
    );
    expect(csv).toContain('Acme Analytics,acme-analytics.example.com,AA Analytics,');
    const again = await upload('companies.csv', csv);
    expect(again.json).toMatchObject({ created: 0, updated: 0 });
    expect(again.json.unchanged).toBeGreaterThanOrEqual(300);
    const xlsx = await upload('companies.xlsx', await exported('xlsx'));
    expect(xlsx.json).toMatchObject({ created: 0, updated: 0 });
  });

  it('creates and updates by name with history, and a second import of the same file changes nothing', async () => {
    const header = new TextDecoder()
      .decode(await exported('csv'))
      .split('\n')[0]
      ?.trim();
    const file = [
      header,
      'Zephyr Robotics,zephyr-robotics.example.com,ZR; Zephyr Bots,,matching,form,both,2,25,1000,none,,,https://zephyr.example.com,,,,1; 3',
      'Zephyr Robotics Europe,zephyr.example.eu,,Zephyr Robotics,matching,form,both,1,,,none,,,,,,,',
    ].join('\n');
    const first = await upload('new.csv', file);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ created: 2, updated: 0 });
    const europe = await company('Zephyr Robotics Europe');
    expect(europe.parent_id).toBe((await company('Zephyr Robotics')).id);
    expect((await identifyEmployer(t.db, { employer: 'Zephyr Bots' })).company_name).toBe('Zephyr Robotics');
    expect((await identifyEmployer(t.db, { email: 'a@zephyr.example.eu' })).company_name).toBe(
      'Zephyr Robotics',
    );
    const second = await upload('new.csv', file);
    expect(second.json).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const changed = await upload('new.csv', file.replace(',2,25,1000,', ',3,25,1000,'));
    expect(changed.json).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
  });

  it('checks every row and writes nothing when one is wrong, naming the row and the problem', async () => {
    const header = new TextDecoder()
      .decode(await exported('csv'))
      .split('\n')[0]
      ?.trim();
    const file = [
      header,
      'Nimbus Aerospace,nimbus.example.com,,,matching,form,both,1,,,none,,,,,,,',
      'Nimbus Shipping,gmail.com,,,matching,teleport,both,twice,,,none,,,,,,,',
      ',,,,matching,form,both,1,,,none,,,,,,,',
    ].join('\n');
    const res = await upload('bad.csv', file);
    expect(res.status).toBe(400);
    const message = String(res.json.message);
    expect(message).toMatch(/^Nothing was imported: 2 rows have problems\. Row 3: /);
    for (const part of [
      'gmail.com is a free-mail or ISP domain',
      'match_method: ',
      'match_ratio: ',
      'Row 4: name is required',
    ])
      expect(message).toContain(part);
    const list = await call(t.app, 'GET', '/api/companies?q=Nimbus', { token: tokens.admin });
    expect(list.json.total).toBe(0);
    expect((await upload('bad.csv', file, tokens.admin)).status).toBe(403);
  });
});
