import * as z from 'zod/mini';

/*
 * The one rule for an email address, for every path that takes one (sign-in, the donor's own
 * edit, staff-entered matches, the import, a company's forms email, the FAQ's donor link): zod's
 * `z.email()`, so an address one path accepts is never refused by another (the import took
 * `a@b.c`, which the donor's edit form then refused). Built on `z.email()` itself rather than its
 * exported pattern, which would bring zod's whole regex table into the portal's first load.
 */

/** RFC 5321's longest forward path; fields may keep a shorter limit of their own. */
export const emailMaxLength = 320;

/** The rule as a zod check, with the field's message. */
export const emailFormat = /* @__NO_SIDE_EFFECTS__ */ (message: string) => z.email(message);

const address = z.string().check(z.maxLength(emailMaxLength), z.email());

/** Whether a (trimmed) value is an email address by the one rule. */
export function isEmailAddress(value: string): boolean {
  return z.safeParse(address, value).success;
}
