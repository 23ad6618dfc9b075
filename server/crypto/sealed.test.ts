import { describe, expect, it } from 'vitest';
import { seal, unseal } from './sealed.ts';

const secret = 'a-server-secret-of-at-least-32-characters';

describe('sealed secrets', () => {
  it('opens what it sealed, and the stored form does not contain it', () => {
    const stored = seal(secret, 'totp-secret', 'user:7', 'JBSWY3DPEHPK3PXP');
    expect(stored).not.toContain('JBSWY3DPEHPK3PXP');
    expect(unseal(secret, 'totp-secret', 'user:7', stored)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses another record, another purpose, another server secret, or a changed byte', () => {
    const stored = seal(secret, 'totp-secret', 'user:7', 'seed');
    expect(() => unseal(secret, 'totp-secret', 'user:8', stored)).toThrow();
    expect(() => unseal(secret, 'dkim-key', 'user:7', stored)).toThrow();
    expect(() => unseal(`${secret}!`, 'totp-secret', 'user:7', stored)).toThrow();
    const [v, iv, tag, data = ''] = stored.split('.');
    const flipped = `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`;
    expect(() => unseal(secret, 'totp-secret', 'user:7', [v, iv, tag, flipped].join('.'))).toThrow();
    expect(() => unseal(secret, 'totp-secret', 'user:7', 'plain text')).toThrow(
      'unknown sealed value format',
    );
  });
});
