import * as z from 'zod/mini';
import { emailFormat } from './email.ts';

/** spec (part 1, section 5, Contact form): values trimmed; limits and messages word for word. */
export const contactLimits = {
  name: 100,
  email: 255,
  organization: 200,
  subject: 200,
  message: 2000,
} as const;

const field = /* @__NO_SIDE_EFFECTS__ */ (label: string, max: number) =>
  z
    .string(`${label} is required`)
    .check(
      z.trim(),
      z.minLength(1, `${label} is required`),
      z.maxLength(max, `${label} must be less than ${max} characters`),
    );

export const ContactForm = z.object({
  name: field('Name', contactLimits.name),
  email: z
    .string('Email is required')
    .check(
      z.trim(),
      z.minLength(1, 'Email is required'),
      z.maxLength(contactLimits.email, 'Email must be less than 255 characters'),
      emailFormat('Invalid email address'),
    ),
  organization: field('Organization', contactLimits.organization),
  subject: field('Subject', contactLimits.subject),
  message: field('Message', contactLimits.message),
});

export const ContactRequest = z.extend(ContactForm, {
  recaptchaToken: z
    .string()
    .check(z.minLength(1, 'Please complete the reCAPTCHA verification.'), z.maxLength(4000)),
});
export type ContactRequest = z.infer<typeof ContactRequest>;
