import { oauthLifetimes, oauthScopes } from '../../../src/contract/oauth.ts';

/**
 * The partner's server side of the OAuth flow (issue #25) as the API reference shows it: plain
 * `fetch`, runnable on Node 20 as is. `server/modules/oauth/oauth.test.ts` runs this very text
 * against the server, so the documented example keeps working.
 */
export const oauthExample = `// Your server, after your page got { code, state } (twofold-connected, or your redirect URI).
// TWOFOLD, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI: yours; CODE_VERIFIER: the PKCE verifier you kept.
const basic = 'Basic ' + Buffer.from(CLIENT_ID + ':' + CLIENT_SECRET).toString('base64');
const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };

// 1. Exchange the code (once, within ${oauthLifetimes.codeSeconds / 60} minutes) for tokens.
const tokens = await (await fetch(TWOFOLD + '/oauth/token', {
  method: 'POST',
  headers: form,
  body: new URLSearchParams({
    grant_type: 'authorization_code',
    code: CODE,
    redirect_uri: REDIRECT_URI,
    code_verifier: CODE_VERIFIER,
  }),
})).json();

// 2. Act for the organization that allowed you, with the scopes it granted.
const created = await (await fetch(TWOFOLD + '/api/v1/matches', {
  method: 'POST',
  headers: {
    authorization: 'Bearer ' + tokens.access_token,
    'content-type': 'application/json',
    'idempotency-key': 'gift-1001',
  },
  body: JSON.stringify({
    donated_at: '2025-06-01 12:00:00',
    amount: 120,
    donor: { name: 'Ada Donor', email: 'ada@example.org' },
    company_name: 'Acme Corp',
  }),
})).json();

// 3. The access token lasts ${oauthLifetimes.accessTokenSeconds / 60} minutes: refresh it. Store the NEW refresh token;
//    presenting an old one again disconnects you from the organization.
const refreshed = await (await fetch(TWOFOLD + '/oauth/token', {
  method: 'POST',
  headers: form,
  body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
})).json();

return { match: created.donation, tokens: refreshed };
`;

/** The reference's section on connecting as a partner app (Markdown, shown above the operations). */
export const oauthGuide = `
## Connect as a partner app (OAuth 2.0)

Platforms that onboard many nonprofits do not ask each for an API key: they register a **partner
app** with Twofold (client id, client secret, exact redirect URIs, the scopes it may ask for), and each
nonprofit's administrator allows it once. The app then gets tokens for that one organization.

1. **Ask for consent.** Send the browser to \`GET /oauth/authorize\` with \`response_type=code\`,
   \`client_id\`, \`redirect_uri\` (exactly as registered), \`state\`, \`scope\` (space-separated;
   default: all your app may ask for) and PKCE: \`code_challenge\` (base64url SHA-256 of a random
   verifier your server keeps) with \`code_challenge_method=S256\` (\`plain\` is refused). The
   administrator signs in (or registers their nonprofit), picks the organization and chooses Allow or
   Deny; the browser comes back to your redirect URI with \`code\` and \`state\` (or
   \`error=access_denied\`). Embedded instead: put
   \`<twofold-registration partner="CLIENT_ID" redirect-uri="…" state="…" code-challenge="…">\` in your
   onboarding page; after registering, it offers **Connect**, runs the consent in a popup and fires
   \`twofold-connected\` with \`{ code, state }\` (posted only to your redirect URI's origin).
2. **Exchange the code** at \`POST /oauth/token\` (form-encoded; client_secret_basic or
   client_secret_post) with the verifier: an access token (${oauthLifetimes.accessTokenSeconds / 60} minutes) and a refresh token.
3. **Call \`/api/v1\`** with \`Authorization: Bearer <access token>\`. Each operation needs its scope;
   without it the answer is 403 \`insufficient_scope\`.
4. **Refresh** with \`grant_type=refresh_token\`: every refresh gives a new refresh token; reusing an
   old one revokes the whole connection. A connection also ends when the organization's admin
   chooses Disconnect (Integrations → Connected apps) or you call \`POST /oauth/revoke\`.

Debug a token with \`POST /oauth/introspect\` (RFC 7662). The server's metadata is at
\`/.well-known/oauth-authorization-server\` (RFC 8414); OAuth libraries configure themselves from it.

Scopes: ${Object.entries(oauthScopes)
  .map(([scope, label]) => `\`${scope}\` (${label.charAt(0).toLowerCase()}${label.slice(1)})`)
  .join('; ')}.

A partner's server, end to end (Node 20, no library):

\`\`\`js
${oauthExample}\`\`\`
`;
