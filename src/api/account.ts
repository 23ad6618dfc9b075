import * as z from 'zod/mini';
import {
  AccountSessions,
  EndedSessions,
  RecoveryCodes,
  TotpEnrolment,
  TwoFactorMembers,
  TwoFactorStatus,
} from '../contract/account.ts';
import { LoginResponse, MessageResponse } from '../contract/auth.ts';
import { request } from './client.ts';

/** Issue #24: the user's own sessions and second factor, and an organization's two-factor policy. */

const segment = (value: string | number) => encodeURIComponent(String(value));
/** A code (and a solved challenge, when the last refusal asked for one). */
export type CodeInput = { code?: string; captcha?: string };

export const getSessions = () => request(AccountSessions, 'api/account/sessions');
export const endSession = (id: string) =>
  request(EndedSessions, `api/account/sessions/${segment(id)}`, { method: 'delete' });
export const endOtherSessions = () =>
  request(EndedSessions, 'api/account/sessions/end-others', { method: 'post' });

export const getTwoFactor = () => request(TwoFactorStatus, 'api/account/two-factor');
export const startTotp = () => request(TotpEnrolment, 'api/account/totp', { method: 'post' });
export const confirmTotp = (input: CodeInput) =>
  request(RecoveryCodes, 'api/account/totp/confirm', { method: 'post', json: input });
export const removeTotp = (input: CodeInput) =>
  request(MessageResponse, 'api/account/totp/remove', { method: 'post', json: input });
export const newRecoveryCodes = (input: CodeInput) =>
  request(RecoveryCodes, 'api/account/recovery-codes', { method: 'post', json: input });

/** POST /api/auth/second-factor: the code after a password or magic link; a session. */
export const secondFactor = (input: { token: string; code: string; captcha?: string }) =>
  request(z.extend(LoginResponse, { redirect: z.optional(z.string()) }), 'api/auth/second-factor', {
    method: 'post',
    json: input,
    authenticated: false,
  });

export const getTwoFactorPolicy = (orgId: number) =>
  request(TwoFactorMembers, `api/organization/${segment(orgId)}/two-factor`);
export const setTwoFactorPolicy = (orgId: number, required: boolean) =>
  request(TwoFactorMembers, `api/organization/${segment(orgId)}/two-factor`, {
    method: 'put',
    json: { require_two_factor: required },
  });
export const resetMemberTwoFactor = (orgId: number, userId: number) =>
  request(MessageResponse, `api/organization/${segment(orgId)}/user/${segment(userId)}/reset-two-factor`, {
    method: 'post',
  });
