/**
 * Mixed signed-in traffic through the load balancer, as a nonprofit's staff make it: the match
 * list with its filters, statistics and the dashboard's calls, the verification queue with bulk
 * verifies (status changes that send emails and webhooks), and imports (a mail and webhook burst
 * each). Every request is recorded with when it started and ended, so a check can tell the
 * requests in flight at a kill from those that were not.
 */

import { request } from 'node:http';

/**
 * One request on a connection of its own (`Connection: close`). A browser whose kept-alive
 * connection is closed by the load balancer's reload before any answer sends the request again on
 * a new one; a plain fetch reports the failure instead. A connection per request keeps the count
 * about the cluster, not about that client-side race.
 */
async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: FormData | string; timeoutMs: number },
): Promise<{ status: number; text: () => string }> {
  let body: Buffer | undefined;
  const headers: Record<string, string> = { ...init.headers, connection: 'close' };
  if (init.body instanceof FormData) {
    const encoded = new Request('http://encode.invalid/', { method: 'POST', body: init.body });
    body = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type') ?? '';
  } else if (typeof init.body === 'string') body = Buffer.from(init.body);
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: init.method ?? 'GET', headers, agent: false, timeout: init.timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, text: () => text });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

type Answer = Awaited<ReturnType<typeof send>>;

export type Outcome = { kind: string; start: number; end: number; status: number; detail?: string };

export type Traffic = {
  outcomes: Outcome[];
  imports: { tag: string; rows: number; status: number; start: number; end: number }[];
  stop: () => Promise<void>;
};

const organizationId = 1;
const listQueries = [
  'page=1&per_page=25',
  'page=2&per_page=25&sort_field=amount&ascending=false',
  'filters[status_group]=npo_verify',
  'filters[status_group]=engaged_submitted&filters[minAmount]=50',
  'filters[donor]=ivy',
  'filters[company]=Acme',
  'filters[dateFrom]=2026-01-01&filters[dateTo]=2026-12-31',
  'filters[paid]=unpaid',
];

export async function signIn(lbUrl: string, email: string): Promise<string> {
  const res = await fetch(`${lbUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'twofold-demo' }),
  });
  if (res.status !== 200) throw new Error(`sign-in for ${email} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export function startTraffic(
  lbUrl: string,
  token: string,
  options: { readers: number; importRows: number; imports: boolean; verifies: boolean; runId: string },
): Traffic {
  const outcomes: Outcome[] = [];
  const imports: Traffic['imports'] = [];
  let running = true;
  const auth = { authorization: `Bearer ${token}` };

  async function timed(kind: string, go: () => Promise<Answer>): Promise<Answer | undefined> {
    const start = performance.now();
    try {
      const res = await go();
      outcomes.push({ kind, start, end: performance.now(), status: res.status });
      return res;
    } catch (error) {
      outcomes.push({ kind, start, end: performance.now(), status: 0, detail: String(error) });
      return undefined;
    }
  }

  const get = (kind: string, path: string) =>
    timed(kind, () => send(`${lbUrl}${path}`, { headers: auth, timeoutMs: 120_000 }));

  async function reader(n: number) {
    let i = n;
    while (running) {
      i++;
      const q = listQueries[i % listQueries.length];
      await get('list', `/api/organization/${organizationId}/donation?${q}`);
      if (i % 3 === 0) await get('statistics', `/api/organization/${organizationId}/statistics`);
      if (i % 4 === 0) await get('insights', `/api/organization/${organizationId}/statistics/insights`);
      if (i % 5 === 0) await get('common', '/api/common');
    }
  }

  async function verifier() {
    while (running) {
      const res = await get('verification', `/api/organization/${organizationId}/verification`);
      if (res?.status !== 200) continue;
      const body = JSON.parse(res.text()) as { groups: { items: { id: number }[] }[] };
      const ids = body.groups.flatMap((g) => g.items.map((it) => it.id)).slice(0, 25);
      if (ids.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      await timed('verify', () =>
        send(`${lbUrl}/api/organization/${organizationId}/verification/verify`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ donation_ids: ids }),
          timeoutMs: 120_000,
        }),
      );
    }
  }

  async function importer() {
    let n = 0;
    while (running) {
      n++;
      const tag = `${options.runId}-imp${n}`;
      const lines = ['Donor Name,Donor Email,Amount,Date,Company,Organization'];
      for (let r = 0; r < options.importRows; r++) {
        const company = ['Acme Analytics', 'Harbor Pharma', 'Northwind Logistics', 'Blue Ocean Bank'][r % 4];
        lines.push(
          `Donor ${r},${tag}-${r}@example.org,${25 + (r % 50)},2026-11-0${1 + (r % 9)},${company},Hope Harbor Foundation`,
        );
      }
      const form = new FormData();
      form.set('donations', new File([lines.join('\n')], `${tag}.csv`, { type: 'text/csv' }));
      form.set('type', 'Upload');
      form.set(
        'map',
        JSON.stringify({
          donor_name: 'donor.name',
          donor_email: 'donor.email',
          amount: 'amount',
          date: 'donated_at',
          company: 'company.name',
          organization: 'organization_name',
        }),
      );
      const start = performance.now();
      const res = await timed('import', () =>
        send(`${lbUrl}/api/organization/${organizationId}/donation/import-file/Upload`, {
          method: 'POST',
          headers: auth,
          body: form,
          timeoutMs: 300_000,
        }),
      );
      imports.push({
        tag,
        rows: options.importRows,
        status: res?.status ?? 0,
        start,
        end: performance.now(),
      });
      // A staff member's pace: an upload every second or so, not back to back.
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  const loops = [
    ...Array.from({ length: options.readers }, (_, n) => reader(n)),
    ...(options.verifies ? [verifier()] : []),
    ...(options.imports ? [importer()] : []),
  ];
  return {
    outcomes,
    imports,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}
