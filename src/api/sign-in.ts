import * as z from 'zod/mini';
import { SecondFactorChallenge } from '../contract/account.ts';
import {
  AcceptInvitationResponse,
  InvitationPreview,
  LoginResponse,
  MessageResponse,
  type OtpRequest,
  OtpVerifyResponse,
  type ResetRequest,
} from '../contract/index.ts';
import { request, send } from './client.ts';

/** Signing in (the login element and the reset page): kept apart from `common`, which the shell loads first. */

/** spec (part 1, section 8, Access): a login answer without a token. */
export const noTokenMessage = 'Authentication failed: No token received';

/**
 * POST /api/auth/login. No token is sent, so a 401 is "wrong email or password", not an expired
 * session; an ApiError with `captcha` asks for a solved challenge (`captcha`) with the next try.
 */
export async function login(
  email: string,
  password: string,
  captcha?: string,
): Promise<LoginResponse | SecondFactorChallenge> {
  const body = await send('api/auth/login', {
    method: 'post',
    json: captcha ? { email, password, captcha } : { email, password },
    authenticated: false,
  });
  // Issue #24: a user with an authenticator app gives its code next.
  const challenge = SecondFactorChallenge.safeParse(body);
  if (challenge.success) return challenge.data;
  if (!body || typeof body !== 'object' || !('access_token' in body) || !body.access_token) {
    throw new Error(noTokenMessage);
  }
  const parsed = LoginResponse.safeParse(body);
  if (!parsed.success) throw new Error('The server sent an unexpected response.');
  return parsed.data;
}

/** POST /api/auth/otp: emails a one-time sign-in link. */
export function otp(input: OtpRequest): Promise<MessageResponse> {
  return request(MessageResponse, 'api/auth/otp', { method: 'post', json: input, authenticated: false });
}

/** POST /api/auth/otp/verify: exchanges the link's token for a session. */
export function otpVerify(
  token: string,
): Promise<OtpVerifyResponse | (SecondFactorChallenge & { redirect: string })> {
  return request(
    z.union([OtpVerifyResponse, z.extend(SecondFactorChallenge, { redirect: z.string() })]),
    'api/auth/otp/verify',
    {
      method: 'post',
      json: { token },
      authenticated: false,
    },
  );
}

/** POST /api/invitation: what an invitation link offers, before its owner accepts. */
export function previewInvitation(token: string): Promise<InvitationPreview> {
  return request(InvitationPreview, 'api/invitation', {
    method: 'post',
    json: { token },
    authenticated: false,
  });
}

/** POST /api/invitation/accept: joins the organization and signs in. */
export function acceptInvitation(
  token: string,
): Promise<
  AcceptInvitationResponse | (SecondFactorChallenge & { redirect: string; organization_id: number })
> {
  const challenge = z.extend(SecondFactorChallenge, { redirect: z.string(), organization_id: z.number() });
  return request(z.union([AcceptInvitationResponse, challenge]), 'api/invitation/accept', {
    method: 'post',
    json: { token },
    authenticated: false,
  });
}

/** POST /api/auth/forgot */
export function forgot(email: string): Promise<MessageResponse> {
  return request(MessageResponse, 'api/auth/forgot', {
    method: 'post',
    json: { email },
    authenticated: false,
  });
}

/** POST /api/auth/reset */
export function reset(input: ResetRequest): Promise<MessageResponse> {
  return request(MessageResponse, 'api/auth/reset', { method: 'post', json: input, authenticated: false });
}
