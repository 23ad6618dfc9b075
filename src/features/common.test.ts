import { describe, expect, it } from 'vitest';
import { LoginForm, RegistrationRequest, ResetForm } from '../contract/index.ts';
import { fieldErrors, safeRedirect } from './common.ts';

describe('safeRedirect', () => {
  it('keeps local paths and refuses anything that leaves the site', () => {
    expect(safeRedirect('/portal/donations?page=2')).toBe('/portal/donations?page=2');
    expect(safeRedirect(null)).toBe('/portal');
    expect(safeRedirect('https://evil.example/')).toBe('/portal');
    expect(safeRedirect('//evil.example/')).toBe('/portal');
    expect(safeRedirect('/\\evil.example')).toBe('/portal');
  });
});

describe('fieldErrors', () => {
  it("gives the spec's login messages per field", () => {
    const result = LoginForm.safeParse({ email: 'nope', password: '123' });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error?.issues ?? [])).toEqual({
      email: 'Please enter a valid email address',
      password: 'Password must be at least 6 characters',
    });
  });

  it('puts "Passwords don\'t match" on confirmPassword', () => {
    const result = ResetForm.safeParse({ password: 'abcdef', confirmPassword: 'abcdeg' });
    expect(fieldErrors(result.error?.issues ?? [])).toEqual({ confirmPassword: "Passwords don't match" });
  });

  it('keys nested fields by their dotted path, first message only', () => {
    const result = RegistrationRequest.safeParse({ address: { street: '' } });
    const errors = fieldErrors(result.error?.issues ?? []);
    expect(errors['address.street']).toBe('Street address is required');
    expect(errors['address.city']).toBe('City is required');
    expect(errors.categoryId).toBe('At least one category must be selected');
  });
});
