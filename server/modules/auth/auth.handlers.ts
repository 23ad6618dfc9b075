import type { Context } from 'hono';
import type { SecondFactorChallenge, SecondFactorRequest } from '../../../src/contract/account.ts';
import type {
  LoginRequest,
  LoginResponse,
  Me,
  MessageResponse,
  OtpRequest,
  OtpVerifyResponse,
  ResetRequest,
} from '../../../src/contract/auth.ts';
import { donorMessages, donorRedirectMatchId } from '../../../src/contract/donor.ts';
import type { AppEnv, AuthUser, Deps } from '../../http/route.ts';
import { requestDonorLink } from '../donor/donor.service.ts';
import * as auth from './auth.service.ts';
import { endOneSession } from './sessions.ts';

/** HTTP in, HTTP out: each handler takes the validated input and returns the response body. */
type In<B> = { deps: Deps; body: B };

/**
 * A refused sign-in is `{ message, captcha? }`: 401 for a wrong email or password (the flag: the
 * next attempt needs a solved challenge), 428 when the password was not checked for want of one.
 */
export async function login({
  deps,
  body,
  ip,
  c,
}: In<LoginRequest> & { ip: string; c: Context<AppEnv> }): Promise<
  LoginResponse | SecondFactorChallenge | Response
> {
  const outcome = await auth.login(deps, body, ip, c.req.header('user-agent') ?? null);
  return outcome.ok ? outcome.session : c.json(outcome.refusal, outcome.status);
}

/** The code after a right password or magic link: a session, or `{ message, captcha? }` as for login. */
export async function secondFactor({
  deps,
  body,
  ip,
  c,
}: In<SecondFactorRequest> & { ip: string; c: Context<AppEnv> }): Promise<LoginResponse | Response> {
  const outcome = await auth.completeSecondFactor(deps, body, {
    ip,
    userAgent: c.req.header('user-agent') ?? null,
  });
  return outcome.ok ? outcome.session : c.json(outcome.refusal, outcome.status);
}

export async function requestOtp({ deps, body }: In<OtpRequest>): Promise<MessageResponse> {
  // spec: "redirect=/donor-match-update/{di}: emails the donor a login link". The same answer
  // whether or not the match's donor has that email: it never says which addresses have matches.
  const matchId = donorRedirectMatchId(body.redirect);
  if (matchId !== undefined) {
    await requestDonorLink(deps, body.email, matchId);
    return { message: donorMessages.linkSent };
  }
  await auth.requestMagicLink(deps, body.email, body.redirect);
  return { message: auth.authServiceMessages.magicLinkSent };
}

/** spec: the donor FAQ asks for a link with GET and query parameters. */
export function requestOtpByQuery({
  deps,
  query,
}: {
  deps: Deps;
  query: OtpRequest;
}): Promise<MessageResponse> {
  return requestOtp({ deps, body: query });
}

export function verifyOtp({
  deps,
  body,
  ip,
  c,
}: In<{ token: string }> & { ip: string; c: Context<AppEnv> }): Promise<
  OtpVerifyResponse | (SecondFactorChallenge & { redirect: string })
> {
  return auth.verifyMagicLink(deps, body.token, { ip, userAgent: c.req.header('user-agent') ?? null });
}

export async function forgot({ deps, body }: In<{ email: string }>): Promise<MessageResponse> {
  await auth.forgotPassword(deps, body.email);
  return { message: auth.authServiceMessages.forgotSent };
}

export async function reset({ deps, body }: In<ResetRequest>): Promise<MessageResponse> {
  await auth.resetPassword(deps, body.token, body.password);
  return { message: auth.authServiceMessages.resetDone };
}

export function common({ deps, user }: { deps: Deps; user: AuthUser }): Promise<Me> {
  return auth.loadMe(deps.db, user.id, { live: user.session, exposed: deps.config.exposed });
}

export async function logout({ deps, user }: { deps: Deps; user: AuthUser }): Promise<MessageResponse> {
  if (user.session) await endOneSession(deps.db, user.id, user.session.id, 'signed_out');
  return { message: 'Signed out' };
}
