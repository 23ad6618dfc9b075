import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from './errors.ts';

describe('isUniqueViolation', () => {
  const driverError = Object.assign(new Error('duplicate key'), {
    code: '23505',
    constraint: 'donations_org_transaction_unique',
  });
  it('reads the driver error itself, or as the cause drizzle wraps it in', () => {
    expect(isUniqueViolation(driverError)).toBe(true);
    expect(isUniqueViolation(new Error('Failed query', { cause: driverError }))).toBe(true);
  });
  it('checks the constraint when one is named', () => {
    expect(isUniqueViolation(driverError, 'donations_org_transaction_unique')).toBe(true);
    expect(isUniqueViolation(driverError, 'users_email_unique')).toBe(false);
  });
  it('is false for other errors and for non-errors', () => {
    expect(isUniqueViolation(Object.assign(new Error('fk'), { code: '23503' }))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
