import { describe, expect, it } from 'vitest';
import { withWorkContext } from '../observability/context.ts';
import { createLogger, scrubLine } from './logger.ts';

function capture(format: 'json' | 'human', allowedEmails: string[] = []) {
  const lines: string[] = [];
  return { lines, logger: createLogger({ format, write: (line) => lines.push(line), allowedEmails }) };
}

describe('the logger', () => {
  it('writes one JSON object a line with level, time, service, host and the work context', () => {
    const { lines, logger } = capture('json');
    withWorkContext({ requestId: 'req-1', job: 'mail', jobId: 7 }, () =>
      logger.warn('mail 7: attempt 1 failed', { attempt: 1 }),
    );
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? '');
    expect(entry).toMatchObject({
      level: 'warn',
      service: 'twofold',
      msg: 'mail 7: attempt 1 failed',
      request_id: 'req-1',
      job: 'mail',
      job_id: 7,
      attempt: 1,
    });
    expect(typeof entry.hostname).toBe('string');
    expect(new Date(entry.time).toISOString()).toBe(entry.time);
  });

  it('writes human lines for a person: the message, its job and request, an error with its stack', () => {
    const { lines, logger } = capture('human');
    logger.info('Twofold is running');
    withWorkContext({ requestId: 'req-2' }, () => logger.error('GET /api/x failed', new Error('boom')));
    expect(lines[0]).toBe('Twofold is running\n');
    expect(lines[1]).toMatch(/^GET \/api\/x failed \[request req-2\]\nError: boom\n {4}at /);
  });

  it('never writes a field named like a secret, whatever a caller passes', () => {
    const { lines, logger } = capture('json');
    logger.info('careless', {
      password: 'hunter2-secret',
      token: 'abc-token-value',
      email: 'x@y.org',
      count: 3,
    });
    expect(lines[0]).not.toContain('hunter2-secret');
    expect(lines[0]).not.toContain('abc-token-value');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      password: '[redacted]',
      token: '[redacted]',
      count: 3,
    });
  });

  it('scrubs addresses, signed tokens, API keys and webhook secrets from any line, an error message too', () => {
    const { lines, logger } = capture('json', ['admin@twofold.test']);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMiLCJleHAiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    logger.error(
      'send failed',
      new Error(
        `550 <Donor.Person+tag@Example.ORG> unknown; key tf_${'k'.repeat(43)}; ${jwt}; whsec_${'A'.repeat(32)}`,
      ),
    );
    logger.info('Demo sign-ins: admin@twofold.test');
    const all = lines.join('');
    for (const secret of [
      'Donor.Person+tag@Example.ORG',
      `tf_${'k'.repeat(43)}`,
      jwt,
      `whsec_${'A'.repeat(32)}`,
    ])
      expect(all).not.toContain(secret);
    expect(all).toContain('[email]');
    expect(all).toContain('[api key]');
    expect(all).toContain('[jwt]');
    expect(all).toContain('[webhook secret]');
    expect(lines[1]).toContain('admin@twofold.test');
    expect(scrubLine('reach a@b.co or c@d.example.org')).toBe('reach [email] or [email]');
  });

  it('LOG_LEVEL=warn drops info lines', () => {
    const lines: string[] = [];
    const logger = createLogger({ format: 'json', level: 'warn', write: (line) => lines.push(line) });
    logger.info('quiet');
    logger.warn('loud');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['loud']);
  });
});
