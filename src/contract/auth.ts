import * as z from 'zod/mini';
import { emailFormat } from './email.ts';

/** spec (part 1, section 5): login and reset messages, word for word. */
export const authMessages = {
  invalidEmail: 'Please enter a valid email address',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordsDontMatch: "Passwords don't match",
  noUserFound: 'No user found with that email address',
} as const;

/** spec: "Password minimum: 6 characters." */
export const passwordMinLength = 6;

export const email = z.string().check(emailFormat(authMessages.invalidEmail));

/** An email typed into a form: surrounding spaces are trimmed before it is checked. */
export const trimmedEmail = /* @__NO_SIDE_EFFECTS__ */ (message: string, max = 255) =>
  z.string(message).check(z.trim(), z.maxLength(max, message), emailFormat(message));
export const password = z.string().check(z.minLength(passwordMinLength, authMessages.passwordTooShort));

export const LoginRequest = z.object({
  email,
  password: z.string().check(z.minLength(1)),
  /**
   * A solved proof-of-work challenge (the contact form's ALTCHA, base64 JSON), needed once an
   * email or address has failed to sign in a few times; the refusal says so with `captcha: true`.
   */
  captcha: z.optional(z.string().check(z.maxLength(4000))),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** A refused sign-in. `captcha: true`: the next attempt must carry a solved challenge. */
export const LoginRefusal = z.object({ message: z.string(), captcha: z.optional(z.boolean()) });
export type LoginRefusal = z.infer<typeof LoginRefusal>;

/** What a refused sign-in says when it needs the challenge (not shown in the spec). */
export const loginCaptchaMessages = {
  required: 'Please complete the verification to sign in.',
  failed: 'The verification failed or has expired. Please try again.',
} as const;

/** The login form checks the password length too (spec), the server only that one was given. */
export const LoginForm = z.object({ email, password });

export const OrgRef = z.object({ id: z.number(), name: z.string() });
export type OrgRef = z.infer<typeof OrgRef>;

/** spec (part 1, section 3, User): id, email, name, globalPermission, orgs. */
export const Me = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  globalPermission: z.boolean(),
  orgs: z.array(OrgRef),
  /**
   * Issue #24: this session must set up a second factor (an organization requires it) before it
   * may do anything but its account page, where the portal takes it.
   */
  twoFactorRequired: z.optional(z.boolean()),
});
export type Me = z.infer<typeof Me>;

export const LoginResponse = z.object({ access_token: z.string(), me: Me });
export type LoginResponse = z.infer<typeof LoginResponse>;

/** spec: POST /api/auth/otp body email, redirect ('/portal'). Redirect must stay on our site. */
export const redirectPath = z.string().check(
  z.maxLength(500),
  z.refine(
    (v) => v.startsWith('/') && !v.startsWith('//') && !v.includes('\\'),
    'Redirect must be a local path',
  ),
);
export const OtpRequest = z.object({ email, redirect: z.optional(redirectPath) });
export type OtpRequest = z.infer<typeof OtpRequest>;

/** The magic link's landing exchanges its one-time token for a session. */
export const OtpVerifyRequest = z.object({ token: z.string().check(z.minLength(16), z.maxLength(200)) });
export const OtpVerifyResponse = z.extend(LoginResponse, { redirect: z.string() });
export type OtpVerifyResponse = z.infer<typeof OtpVerifyResponse>;

export const ForgotRequest = z.object({ email });
export const ResetRequest = z.object({
  token: z.string().check(z.minLength(16), z.maxLength(200)),
  password,
});
export type ResetRequest = z.infer<typeof ResetRequest>;

/** spec: "Reset: both passwords need at least 6 characters and must match". Client only. */
export const ResetForm = z.object({ password, confirmPassword: password }).check(
  z.refine((v) => v.password === v.confirmPassword, {
    message: authMessages.passwordsDontMatch,
    path: ['confirmPassword'],
  }),
);

/**
 * The claims of our session tokens (JWT), as the browser reads them. `purpose` separates staff
 * sessions ('access') from donor sessions ('donor-session'); the server's token module
 * (server/modules/auth/tokens.ts) never accepts a token for another purpose than its own.
 */
export const TokenClaims = z.object({
  sub: z.string(),
  exp: z.number(),
  purpose: z.optional(z.enum(['access', 'donor-session'])),
  /** Staff tokens: the session they belong to. */
  sid: z.optional(z.string()),
});
export type TokenClaims = z.infer<typeof TokenClaims>;

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;
