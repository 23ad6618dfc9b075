import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeyMessages } from '../../../src/contract/passkeys.ts';
import { auditEvents, passkeys, users } from '../../db/schema.ts';
import { call, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { SoftwareAuthenticator } from './software-authenticator.ts';

let t: TestContext;
const origin = 'http://portal.test';

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** Registers a new software passkey for the signed-in user; returns it and the stored row's id. */
async function register(token: string, name?: string) {
  const authenticator = new SoftwareAuthenticator(origin);
  const options = await call(t.app, 'POST', '/api/account/passkeys/options', { token });
  expect(options.status).toBe(200);
  expect(options.json.rp.id).toBe('portal.test');
  expect(options.json.authenticatorSelection.residentKey).toBe('required');
  const credential = authenticator.register(options.json);
  const added = await call(t.app, 'POST', '/api/account/passkeys', {
    token,
    body: name ? { name, credential } : { credential },
  });
  expect(added.status, added.text).toBe(201);
  return { authenticator, id: added.json.id as number, name: added.json.name as string };
}

async function signInOptions(email?: string) {
  const res = await call(t.app, 'POST', '/api/auth/passkey/options', { body: email ? { email } : {} });
  expect(res.status).toBe(200);
  return res.json as { challenge: string; allowCredentials?: { id: string }[] };
}

describe('passkeys', () => {
  it('registers a passkey with a real attestation and signs in with it alone, usernameless', async () => {
    const token = await signIn(t.app, 'writer@twofold.test');
    const { authenticator, name } = await register(token, 'Work laptop');
    expect(name).toBe('Work laptop');

    const options = await signInOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    const res = await call(t.app, 'POST', '/api/auth/passkey', {
      body: { credential: authenticator.authenticate(options) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.me.email).toBe('writer@twofold.test');
    expect((await call(t.app, 'GET', '/api/common', { token: res.json.access_token })).status).toBe(200);

    const [row] = await t.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.credential_id, authenticator.credentialId));
    expect(row?.counter).toBe(1);
    expect(row?.last_used_at).not.toBeNull();
    const entries = await t.db.select().from(auditEvents).where(eq(auditEvents.kind, 'auth.sign_in'));
    expect(entries.at(-1)?.details).toMatchObject({ method: 'passkey', factors: ['passkey'] });
  });

  it('after the email is typed, the options name that account’s passkeys and sign-in works', async () => {
    const token = await signIn(t.app, 'reader@twofold.test');
    const { authenticator } = await register(token);
    const options = await signInOptions('Reader@Twofold.test');
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.credentialId]);
    const res = await call(t.app, 'POST', '/api/auth/passkey', {
      body: { credential: authenticator.authenticate(options) },
    });
    expect(res.status).toBe(200);
    expect(res.json.me.email).toBe('reader@twofold.test');
  });

  it('refuses a challenge used once already, at registration and at sign-in', async () => {
    const token = await signIn(t.app, 'admin@twofold.test');
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await call(t.app, 'POST', '/api/account/passkeys/options', { token });
    const credential = authenticator.register(options.json);
    expect((await call(t.app, 'POST', '/api/account/passkeys', { token, body: { credential } })).status).toBe(
      201,
    );
    const again = new SoftwareAuthenticator(origin).register(options.json);
    const replay = await call(t.app, 'POST', '/api/account/passkeys', { token, body: { credential: again } });
    expect(replay.status).toBe(400);
    expect(replay.json).toEqual({ message: passkeyMessages.challengeInvalid });

    const signInOpts = await signInOptions();
    const first = await call(t.app, 'POST', '/api/auth/passkey', {
      body: { credential: authenticator.authenticate(signInOpts) },
    });
    expect(first.status).toBe(200);
    const second = await call(t.app, 'POST', '/api/auth/passkey', {
      body: { credential: authenticator.authenticate(signInOpts) },
    });
    expect(second.status).toBe(400);
    expect(second.json).toEqual({ message: passkeyMessages.challengeInvalid });
  });

  it('refuses a counter that did not move forward (a cloned authenticator), a wrong origin and a forged signature', async () => {
    const token = await signIn(t.app, 'writer@twofold.test');
    const { authenticator } = await register(token);
    expect(
      (
        await call(t.app, 'POST', '/api/auth/passkey', {
          body: { credential: authenticator.authenticate(await signInOptions()) },
        })
      ).status,
    ).toBe(200);
    const cloned = await call(t.app, 'POST', '/api/auth/passkey', {
      body: { credential: authenticator.authenticate(await signInOptions(), { keepCounter: true }) },
    });
    expect(cloned.status).toBe(401);
    expect(cloned.json).toEqual({ message: passkeyMessages.signInFailed });

    const phishing = await call(t.app, 'POST', '/api/auth/passkey', {
      body: { credential: authenticator.authenticate(await signInOptions(), { origin: 'http://evil.test' }) },
    });
    expect(phishing.status).toBe(401);

    const impostor = new SoftwareAuthenticator(origin);
    const forged = impostor.authenticate(await signInOptions());
    const res = await call(t.app, 'POST', '/api/auth/passkey', {
      body: { credential: { ...forged, id: authenticator.credentialId, rawId: authenticator.credentialId } },
    });
    expect(res.status).toBe(401);
    const unknown = await call(t.app, 'POST', '/api/auth/passkey', {
      body: { credential: impostor.authenticate(await signInOptions()) },
    });
    expect(unknown.status).toBe(401);
  });

  it('lists, renames and removes the user’s own passkeys, with audit entries; another user’s cannot be touched', async () => {
    const writer = await signIn(t.app, 'writer@twofold.test');
    const reader = await signIn(t.app, 'reader@twofold.test');
    const { id } = await register(writer, 'Phone');
    const renamed = await call(t.app, 'PATCH', `/api/account/passkeys/${id}`, {
      token: writer,
      body: { name: '  YubiKey  ' },
    });
    expect(renamed.json.name).toBe('YubiKey');
    const blank = await call(t.app, 'PATCH', `/api/account/passkeys/${id}`, {
      token: writer,
      body: { name: ' ' },
    });
    expect(blank.status).toBe(400);

    const theirs = await call(t.app, 'DELETE', `/api/account/passkeys/${id}`, { token: reader });
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual({ message: passkeyMessages.notFound });
    const rename = await call(t.app, 'PATCH', `/api/account/passkeys/${id}`, {
      token: reader,
      body: { name: 'Mine' },
    });
    expect(rename.status).toBe(404);
    const readerList = await call(t.app, 'GET', '/api/account/passkeys', { token: reader });
    expect(readerList.json.passkeys.map((p: { id: number }) => p.id)).not.toContain(id);
    expect((await t.db.select().from(passkeys).where(eq(passkeys.id, id))).length).toBe(1);

    const gone = await call(t.app, 'DELETE', `/api/account/passkeys/${id}`, { token: writer });
    expect(gone.status).toBe(200);
    expect(gone.json.passkeys.map((p: { id: number }) => p.id)).not.toContain(id);
    const [writerRow] = await t.db.select().from(users).where(eq(users.email, 'writer@twofold.test'));
    const kinds = await t.db
      .select({ kind: auditEvents.kind, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.actor_user_id, writerRow?.id ?? 0)));
    expect(kinds.map((k) => k.kind)).toEqual(
      expect.arrayContaining(['auth.passkey_added', 'auth.passkey_removed']),
    );
    expect(JSON.stringify(kinds)).not.toContain('public_key');
  });

  it('refuses to register the same authenticator twice', async () => {
    const token = await signIn(t.app, 'writer@twofold.test');
    const { authenticator } = await register(token);
    const options = await call(t.app, 'POST', '/api/account/passkeys/options', { token });
    expect(options.json.excludeCredentials.map((c: { id: string }) => c.id)).toContain(
      authenticator.credentialId,
    );
    const twice = await call(t.app, 'POST', '/api/account/passkeys', {
      token,
      body: { credential: authenticator.register(options.json) },
    });
    expect(twice.status).toBe(409);
  });
});
