import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'twofold-dist-'));
  mkdirSync(path.join(dist, 'portal'), { recursive: true });
  writeFileSync(path.join(dist, 'portal', 'index.html'), '<!doctype html><title>Twofold portal</title>');
  t = await createTestContext({ distDir: dist });
});
afterAll(() => t.close());

describe('the public pages outside /portal', () => {
  it('serves the portal shell at /match/{slug}, even for a slug that looks like a file name', async () => {
    for (const url of [
      '/match/hope-harbor%20foundation',
      "/match/st.-mary's%20school",
      '/match/maple-street%20pta?amount=5',
    ]) {
      const res = await t.app.request(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>Twofold portal</title>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves the donor edit page without sign-in (the portal shell; the element asks for the link)', async () => {
    const res = await t.app.request('/portal/donor-match-update/12?token=abc');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Twofold portal</title>');
  });
});
