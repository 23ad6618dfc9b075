import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { addressRefusal } from './address-policy.ts';

/** What came back from an outbound POST: the status, the start of the body and how long it took. */
export type OutboundResponse = { status: number; body: string; durationMs: number };

/** An outbound request that got no HTTP answer: refused address, timeout, connection failure. */
export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(
    message: string,
    readonly durationMs: number,
  ) {
    super(message);
  }
}

export type OutboundOptions = {
  /** http:// and loopback/private/link-local addresses allowed (WEBHOOK_ALLOW_PRIVATE, dev and tests). */
  allowPrivate: boolean;
  timeoutMs?: number;
  /** How much of the response body is read; the rest is dropped with the connection. */
  maxResponseBytes?: number;
  /** Name resolution (tests point hostnames at chosen addresses); default: the system's. */
  lookup?: LookupFunction;
};

/** A name's answers pass on only when every address in them is public (addressRefusal). */
export function guardedLookup(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const answers: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 0 }];
      for (const answer of answers) {
        const refusal = addressRefusal(answer.address);
        if (refusal) return callback(new Error(`${hostname}: ${refusal}`), address, family);
      }
      callback(null, address, family);
    });
  };
}

type Connect<O> = (
  options: O,
  callback?: (err: Error | null, stream: Duplex) => void,
) => Duplex | null | undefined;

/**
 * Checks the address a connection is about to use: an IP literal before connecting, a name's
 * answers in the lookup the socket connects with (after DNS, on every connection, so a
 * rebinding answer cannot slip past an earlier check).
 */
function guardedConnect<O extends { host?: string | null | undefined; lookup?: LookupFunction | undefined }>(
  options: O,
  callback: ((err: Error | null, stream: Duplex) => void) | undefined,
  connect: Connect<O>,
): Duplex | null | undefined {
  const host = options.host?.replace(/^\[(.*)\]$/, '$1');
  const refusal = host && net.isIP(host) !== 0 ? addressRefusal(host) : null;
  if (refusal) {
    const socket = new net.Socket();
    if (callback) callback(new Error(refusal), socket);
    else socket.destroy(new Error(refusal));
    return socket;
  }
  return connect({ ...options, lookup: guardedLookup(options.lookup ?? dns.lookup) }, callback);
}

class GuardedHttpAgent extends http.Agent {
  override createConnection(
    options: http.ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ) {
    return guardedConnect(options, callback, (o, cb) => super.createConnection(o, cb));
  }
}

class GuardedHttpsAgent extends https.Agent {
  override createConnection(
    options: https.RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ) {
    return guardedConnect(options, callback, (o, cb) => super.createConnection(o, cb));
  }
}

// One pair of guarded agents for the process (address-policy.ts says what is public; metadata
// addresses such as 169.254.169.254 and fd00:ec2::254 are link-local or unique-local, so refused).
const guardedHttps = new GuardedHttpsAgent({ keepAlive: false });
const guardedHttp = new GuardedHttpAgent({ keepAlive: false });

/**
 * POSTs a JSON body to a URL given by a customer, guarded so it cannot be turned against our own
 * network: https only, public addresses only, no redirects followed (a 3xx is just an answer),
 * a short timeout, and at most `maxResponseBytes` of the answer read.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: OutboundOptions,
): Promise<OutboundResponse> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxResponseBytes ?? 4096;
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      reject(new OutboundError('The URL is not valid', elapsed()));
      return;
    }
    const secure = target.protocol === 'https:';
    if (!secure && !(options.allowPrivate && target.protocol === 'http:')) {
      reject(new OutboundError('Only https:// URLs are allowed', elapsed()));
      return;
    }
    if (target.username || target.password) {
      reject(new OutboundError('URLs with credentials are not allowed', elapsed()));
      return;
    }
    const agent = options.allowPrivate ? undefined : secure ? guardedHttps : guardedHttp;
    const request = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        ...(agent ? { agent } : {}),
        ...(options.lookup ? { lookup: options.lookup } : {}),
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8').slice(0, maxBytes),
            durationMs: elapsed(),
          });
        };
        response.on('data', (chunk: Buffer) => {
          if (done) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= maxBytes) {
            finish();
            response.destroy();
          }
        });
        response.on('end', finish);
        response.on('error', finish);
        response.on('close', finish);
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new OutboundError(`No answer within ${timeoutMs} ms`, elapsed())),
      timeoutMs,
    );
    request.on('timeout', () =>
      request.destroy(new OutboundError(`No answer within ${timeoutMs} ms`, elapsed())),
    );
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error instanceof OutboundError ? error : new OutboundError(error.message, elapsed()));
    });
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
