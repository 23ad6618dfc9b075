import { generateKeyPair } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { promisify } from 'node:util';
import type { RecordCheck } from '../../../src/contract/sending-domain.ts';

const generate = promisify(generateKeyPair);

/** A new DKIM key: 2048-bit RSA; the public key as a DNS record's p= (base64 DER SPKI). */
export async function newDkimKey(): Promise<{ publicKey: string; privateKey: string }> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: publicKey.toString('base64'), privateKey };
}

/**
 * A selector carrying the day and a sequence (`twofold-20261127-1`), so a rotation always
 * publishes a name that was never used before and an operator reading DNS sees which is newer.
 */
export function selectorFor(day: Date, taken: readonly string[]): string {
  const stamp = day.toISOString().slice(0, 10).replaceAll('-', '');
  for (let n = 1; ; n++) {
    const selector = `twofold-${stamp}-${n}`;
    if (!taken.includes(selector)) return selector;
  }
}

/** The DKIM record's value to publish. */
export const dkimRecordValue = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey}`;
export const dkimRecordName = (selector: string, domain: string) => `${selector}._domainkey.${domain}`;

/** `tag=value; …` (DKIM key records, DMARC) as a map; whitespace inside values (folded base64) dropped. */
export function parseTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim().toLowerCase();
    if (name && !tags.has(name)) tags.set(name, part.slice(at + 1).replace(/\s+/g, ''));
  }
  return tags;
}

/** Does a DKIM key record publish this public key (RFC 6376 3.6.1: v, if present, first and DKIM1; k rsa). */
function dkimMismatch(record: string, publicKey: string): string | null {
  const tags = parseTags(record);
  const v = tags.get('v');
  if (v !== undefined && v !== 'DKIM1') return `v= is ${v}, not DKIM1`;
  const k = tags.get('k') ?? 'rsa';
  if (k.toLowerCase() !== 'rsa') return `k= is ${k}, not rsa`;
  const p = tags.get('p');
  if (p === undefined) return 'It has no public key (p=)';
  if (p === '') return 'Its public key is empty (p=): the key is revoked';
  if (p !== publicKey) return 'Its public key (p=) is not the one Twofold generated';
  return null;
}

/** The TXT lookups a check needs: the records at a name, each one's strings joined. */
export type TxtLookup = (name: string) => Promise<{ records: string[] } | { failed: string }>;

/**
 * Node's resolver, asking `servers` when given (DNS_RESOLVER), else the system's. A name with no
 * record or no such name is an empty list; any other failure (timeout, SERVFAIL, refused) is a
 * failed lookup, which concludes nothing. Long records come as several strings: joined.
 */
export function txtLookup(servers: readonly string[] | undefined): TxtLookup {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers && servers.length > 0) resolver.setServers([...servers]);
  return async (name) => {
    try {
      const records = await resolver.resolveTxt(name);
      return { records: records.map((strings) => strings.join('')) };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return { records: [] };
      return { failed: code ?? (error instanceof Error ? error.message : String(error)) };
    }
  };
}

const failedCheck = (reason: string): RecordCheck => ({
  state: 'failed',
  found: [],
  detail: `The DNS lookup failed (${reason}); try again later.`,
});

/** Checks the DKIM record of a key: right, different (what was found), missing, or failed. */
export async function checkDkim(lookup: TxtLookup, name: string, publicKey: string): Promise<RecordCheck> {
  const result = await lookup(name);
  if ('failed' in result) return failedCheck(result.failed);
  const keys = result.records.filter((r) => parseTags(r).has('p') || /^\s*v\s*=\s*DKIM1/i.test(r));
  if (result.records.length === 0) return { state: 'missing', found: [], detail: null };
  if (keys.some((r) => dkimMismatch(r, publicKey) === null))
    return { state: 'right', found: result.records, detail: null };
  const first = keys[0] ?? result.records[0] ?? '';
  return {
    state: 'different',
    found: result.records,
    detail: keys.length > 0 ? dkimMismatch(first, publicKey) : 'No DKIM key record is published there',
  };
}

/** Checks `_dmarc.<domain>`: any v=DMARC1 record is right (its policy is the organization's to choose). */
export async function checkDmarc(lookup: TxtLookup, domain: string): Promise<RecordCheck> {
  const result = await lookup(`_dmarc.${domain}`);
  if ('failed' in result) return failedCheck(result.failed);
  if (result.records.length === 0) return { state: 'missing', found: [], detail: null };
  const dmarc = result.records.filter((r) => /^\s*v\s*=\s*DMARC1\s*(;|$)/i.test(r));
  if (dmarc.length === 1) return { state: 'right', found: result.records, detail: null };
  return {
    state: 'different',
    found: result.records,
    detail:
      dmarc.length > 1
        ? 'Several DMARC records: receivers ignore them all; keep one'
        : 'No record there starts with v=DMARC1',
  };
}
