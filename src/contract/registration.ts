import * as z from 'zod/mini';
import { trimmedEmail } from './auth.ts';
import { dbId, noNul, wellFormed } from './fields.ts';

/** spec (part 1, section 5, Registration messages), word for word. */
export const registrationMessages = {
  name: 'Organization name is required',
  type: 'Organization type is required',
  phone: 'Phone is required',
  mission: 'Mission statement is required',
  ein: 'EIN is required',
  url: 'Website is required',
  street: 'Street address is required',
  city: 'City is required',
  country: 'Country is required',
  categories: 'At least one category must be selected',
  contactName: 'Contact name is required',
  contactEmail: 'Valid email is required',
} as const;

const required = /* @__NO_SIDE_EFFECTS__ */ (message: string, max = 255) =>
  z
    .string(message)
    .check(
      z.trim(),
      z.minLength(1, message),
      z.maxLength(max, `Must be at most ${max} characters`),
      noNul,
      wellFormed,
    );
const optional = /* @__NO_SIDE_EFFECTS__ */ (max = 255) =>
  z.optional(
    z.string().check(z.trim(), z.maxLength(max, `Must be at most ${max} characters`), noNul, wellFormed),
  );

/** spec (part 1, section 3, Registration payload). */
export const RegistrationRequest = z.object({
  name: required(registrationMessages.name, 200),
  type: z.enum(['non-profit', 'edu-pto'], registrationMessages.type),
  phone: required(registrationMessages.phone, 40),
  fax: optional(40),
  mission: required(registrationMessages.mission, 2000),
  ein: required(registrationMessages.ein, 20),
  url: required(registrationMessages.url, 255),
  address: z.object({
    street: required(registrationMessages.street),
    street2: optional(),
    city: required(registrationMessages.city, 100),
    // spec: "The state input is limited to 2 characters."
    state: z.optional(z.string().check(z.trim(), z.maxLength(2, 'State must be 2 characters'))),
    zip: optional(20),
    country: z.enum(['US', 'CA'], registrationMessages.country),
  }),
  categoryId: z
    .array(dbId('Choose categories from the list'), registrationMessages.categories)
    .check(z.minLength(1, registrationMessages.categories)),
  contact_name: required(registrationMessages.contactName, 100),
  contact_email: trimmedEmail(registrationMessages.contactEmail),
  contact_phone: optional(40),
});
export type RegistrationRequest = z.infer<typeof RegistrationRequest>;

export const RegistrationResponse = z.object({
  registered: z.boolean(),
  already_registered: z.boolean(),
  /** The registered administrator's email (the new contact, or the existing admin). */
  email: z.string(),
});
export type RegistrationResponse = z.infer<typeof RegistrationResponse>;
