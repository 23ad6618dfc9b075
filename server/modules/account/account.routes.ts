import type { Context } from 'hono';
import * as z from 'zod';
import {
  AccountSessions,
  EndedSessions,
  RecoveryCodes,
  SecondFactorCode,
  SessionIdParams,
  TotpEnrolment,
  TwoFactorMembers,
  TwoFactorPolicy,
  TwoFactorStatus,
} from '../../../src/contract/account.ts';
import { LoginRefusal, MessageResponse } from '../../../src/contract/auth.ts';
import { IdParams, idSegment, orgFromIdParam } from '../../http/params.ts';
import { type AppEnv, defineRoute } from '../../http/route.ts';
import * as account from './account.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['account'];
const clientOf = (ip: string, c: Context<AppEnv>) => ({ ip, userAgent: c.req.header('user-agent') ?? null });

/** A wrong code answers `{ message, captcha? }` (the sign-in throttle's flag), as sign-in does. */
async function withRefusal<T>(c: Context<AppEnv>, run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof account.CodeRefused) return c.json(error.refusal, error.status);
    throw error;
  }
}

const CodeWithCaptcha = z.object({
  code: SecondFactorCode,
  captcha: z.string().max(4000).optional(),
});
const OptionalCodeWithCaptcha = z.object({
  code: z.string().trim().min(6).max(32).optional(),
  captcha: z.string().max(4000).optional(),
});

const MemberParams = z.object({ id: idSegment, userId: idSegment });
const UserParams = z.object({ userId: idSegment });

const codeResponses = {
  400: {
    description: 'A wrong code (captcha: true: the next try needs a solved challenge)',
    schema: LoginRefusal,
  },
  428: { description: 'A solved challenge (captcha) is needed', schema: LoginRefusal },
};

/**
 * Issue #24: the signed-in user's own sessions and second factor (the account page's Security
 * section), open to a session that must still set one up; and an organization's policy and resets.
 */
export const accountRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/account/sessions',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'The signed-in user’s live sessions (device, address, last seen; which is this one)',
    tags,
    responses: { 200: { description: 'Sessions, most recently seen first', schema: AccountSessions } },
    handler: ({ deps, user }) => account.listSessions(deps, user),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/account/sessions/:sessionId',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'End one of the user’s sessions: its token is refused from the next request',
    tags,
    params: SessionIdParams,
    responses: {
      200: { description: 'Ended', schema: EndedSessions },
      404: error('Session not found'),
    },
    handler: ({ deps, user, params, ip, c }) =>
      account.endSession(deps, user, params.sessionId, clientOf(ip, c)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/sessions/end-others',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'End every session of the user but this one',
    tags,
    responses: { 200: { description: 'How many ended', schema: EndedSessions } },
    handler: ({ deps, user, ip, c }) => account.endOtherSessions(deps, user, clientOf(ip, c)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/account/two-factor',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'The user’s second factor: authenticator app, recovery codes left, whether it is required',
    tags,
    responses: { 200: { description: 'Status', schema: TwoFactorStatus } },
    handler: ({ deps, user }) => account.twoFactorStatus(deps, user),
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/totp',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'Start setting up an authenticator app: a new secret, as a QR code and as text',
    tags,
    rateLimit: {},
    responses: {
      200: { description: 'The secret, until confirmed', schema: TotpEnrolment },
      409: error('An authenticator app is already set up'),
    },
    handler: ({ deps, user }) => account.startTotp(deps, user),
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/totp/confirm',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'Confirm the authenticator app with a code: it is on, and ten recovery codes are shown once',
    tags,
    body: CodeWithCaptcha,
    responses: {
      200: { description: 'The recovery codes (shown once)', schema: RecoveryCodes },
      ...codeResponses,
      409: error('No setup is open'),
    },
    handler: ({ deps, user, body, ip, c }) =>
      withRefusal(c, () => account.confirmTotp(deps, user, body, clientOf(ip, c))),
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/totp/remove',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'Remove the authenticator app (a current code, or a sign-in within 10 minutes)',
    tags,
    body: OptionalCodeWithCaptcha,
    bodyKind: 'optional-json',
    responses: {
      200: { description: 'Removed', schema: MessageResponse },
      ...codeResponses,
      403: error('Neither a code nor a recent sign-in'),
      409: error('No authenticator app is set up'),
    },
    handler: ({ deps, user, body, ip, c }) =>
      withRefusal(c, () => account.removeTotp(deps, user, body, clientOf(ip, c))),
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/recovery-codes',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'Ten new recovery codes, shown once (the old ones stop working)',
    tags,
    body: OptionalCodeWithCaptcha,
    bodyKind: 'optional-json',
    responses: {
      200: { description: 'The new codes', schema: RecoveryCodes },
      ...codeResponses,
      403: error('Neither a code nor a recent sign-in'),
      409: error('No authenticator app is set up'),
    },
    handler: ({ deps, user, body, ip, c }) =>
      withRefusal(c, () => account.regenerateRecoveryCodes(deps, user, body, clientOf(ip, c))),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/two-factor',
    access: { level: 'admin', org: orgFromIdParam },
    summary: 'The organization’s two-factor policy and which members have a second factor',
    tags,
    params: IdParams,
    responses: { 200: { description: 'Policy and members', schema: TwoFactorMembers } },
    handler: ({ deps, params }) => account.organizationTwoFactor(deps, params.id),
  }),
  defineRoute({
    method: 'put',
    path: '/api/organization/:id/two-factor',
    access: { level: 'admin', org: orgFromIdParam },
    summary: 'Require (or stop requiring) two-factor sign-in of everyone with access to the organization',
    tags,
    params: IdParams,
    body: TwoFactorPolicy,
    responses: {
      200: { description: 'Policy and members', schema: TwoFactorMembers },
      409: error('The admin has no second factor of their own yet'),
    },
    handler: ({ deps, user, params, body, ip, c }) =>
      account.setTwoFactorPolicy(deps, user, params.id, body, clientOf(ip, c)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/user/:userId/reset-two-factor',
    access: { level: 'admin', org: (input: { params: { id: number } }) => input.params.id },
    summary: 'Reset a member’s second factor (their app and recovery codes; they are signed out and emailed)',
    tags,
    params: MemberParams,
    responses: {
      200: { description: 'Reset', schema: MessageResponse },
      404: error('User not found (or not a member)'),
    },
    handler: ({ deps, user, params, ip, c }) =>
      account.resetTwoFactor(deps, user, params.userId, params.id, clientOf(ip, c)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/user/:userId/reset-two-factor',
    access: 'super',
    summary: 'Super users: reset anyone’s second factor',
    tags,
    params: UserParams,
    responses: {
      200: { description: 'Reset', schema: MessageResponse },
      404: error('User not found'),
    },
    handler: ({ deps, user, params, ip, c }) =>
      account.resetTwoFactor(deps, user, params.userId, null, clientOf(ip, c)),
  }),
];
