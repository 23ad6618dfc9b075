import * as z from 'zod/mini';

/**
 * The one rule for an email address, for every path that takes one (sign-in, the donor's own
 * edit, staff-entered matches, the import, a company's forms email, the FAQ's donor link): the
 * pattern zod's `z.email()` checks with, so an address one path accepts is never refused by
 * another (the import took `a@b.c`, which the donor's edit form then refused).
 */
export const emailPattern: RegExp = z.regexes.email;

/** RFC 5321's longest forward path; fields may keep a shorter limit of their own. */
export const emailMaxLength = 320;

/** Whether a (trimmed) value is an email address by the one rule. */
export function isEmailAddress(value: string): boolean {
  return value.length <= emailMaxLength && emailPattern.test(value);
}

/** The rule as a zod check, with the field's message. */
export const emailFormat = /* @__NO_SIDE_EFFECTS__ */ (message: string) =>
  z.email({ pattern: emailPattern, error: message });
