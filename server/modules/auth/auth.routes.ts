import * as z from 'zod/mini';
import { SecondFactorChallenge, SecondFactorRequest } from '../../../src/contract/account.ts';
import {
  ForgotRequest,
  LoginRefusal,
  LoginRequest,
  LoginResponse,
  Me,
  MessageResponse,
  OtpRequest,
  OtpVerifyRequest,
  OtpVerifyResponse,
  ResetRequest,
} from '../../../src/contract/auth.ts';
import { defineRoute } from '../../http/route.ts';
import * as handlers from './auth.handlers.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['auth'];

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/auth/login',
    access: 'anonymous',
    summary: 'Sign in with email and password',
    tags,
    body: LoginRequest,
    // No route rate limit: it would refuse the owner's right password along with the guesses.
    // Failures are counted per email and address in the database, and past a few the next
    // attempt needs a solved proof-of-work challenge instead (login-throttle.ts).
    responses: {
      200: {
        description:
          'Signed in, or (second_factor_token) the code of the user’s authenticator app is needed next',
        schema: z.union([LoginResponse, SecondFactorChallenge]),
      },
      400: error('Invalid input'),
      403: error('The organization requires single sign-on for this email address'),
      401: {
        description: 'Invalid email or password (captcha: true: the next attempt needs a solved challenge)',
        schema: LoginRefusal,
      },
      428: {
        description: 'A solved challenge (captcha) is needed, or the one sent is invalid or used',
        schema: LoginRefusal,
      },
    },
    handler: handlers.login,
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/otp',
    access: 'anonymous',
    // The donor edit element asks for a donor link from nonprofits' own sites.
    cors: true,
    summary: 'Email a one-time sign-in link',
    tags,
    body: OtpRequest,
    rateLimit: { bucket: 'otp', email: (i) => i.body.email },
    responses: {
      200: { description: 'Magic link sent', schema: MessageResponse },
      403: error('The organization requires single sign-on for this email address'),
      404: error('No user found with that email address'),
      429: error('Too many attempts'),
    },
    handler: handlers.requestOtp,
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/otp',
    access: 'anonymous',
    // The donor FAQ and the donor edit element call it from nonprofits' own sites.
    cors: true,
    summary:
      'Email a one-time sign-in link (query form); a donor-match-update redirect emails the donor a link',
    tags,
    query: OtpRequest,
    rateLimit: { bucket: 'otp', email: (i) => i.query.email },
    responses: {
      200: { description: 'Magic link sent', schema: MessageResponse },
      403: error('The organization requires single sign-on for this email address'),
      404: error('No user found with that email address'),
      429: error('Too many attempts'),
    },
    handler: handlers.requestOtpByQuery,
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/otp/verify',
    access: 'anonymous',
    summary: 'Exchange a sign-in link token for a session',
    tags,
    body: OtpVerifyRequest,
    rateLimit: { failuresOnly: true },
    responses: {
      200: {
        description:
          'Signed in, or (second_factor_token) the code of the user’s authenticator app is needed next',
        schema: z.union([OtpVerifyResponse, SecondFactorChallenge]),
      },
      400: error('The link is invalid, used or expired'),
      403: error('The organization requires single sign-on for this email address'),
    },
    handler: handlers.verifyOtp,
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/second-factor',
    access: 'anonymous',
    summary: 'The second step of signing in: a code of the authenticator app, or a recovery code',
    tags,
    body: SecondFactorRequest,
    // As for the password: wrong codes are counted per user and address in the database, and past
    // a few each try needs a solved proof-of-work challenge (login-throttle.ts); never a lockout.
    responses: {
      200: { description: 'Signed in', schema: LoginResponse },
      400: error('Invalid input'),
      401: {
        description:
          'A wrong code (captcha: true: the next try needs a solved challenge), or an expired challenge',
        schema: LoginRefusal,
      },
      428: { description: 'A solved challenge (captcha) is needed', schema: LoginRefusal },
    },
    handler: handlers.secondFactor,
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/logout',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'Sign out: ends the session making the call',
    tags,
    responses: { 200: { description: 'Signed out', schema: MessageResponse }, 401: error('Not signed in') },
    handler: handlers.logout,
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/forgot',
    access: 'anonymous',
    summary: 'Email password reset instructions',
    tags,
    body: ForgotRequest,
    rateLimit: { email: (i) => i.body.email },
    responses: {
      200: { description: 'Answered the same whether or not the account exists', schema: MessageResponse },
      429: error('Too many attempts'),
    },
    handler: handlers.forgot,
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/reset',
    access: 'anonymous',
    summary: 'Set a new password with a reset token',
    tags,
    body: ResetRequest,
    rateLimit: { failuresOnly: true },
    responses: {
      200: { description: 'Password reset', schema: MessageResponse },
      400: error('The link is invalid, used or expired, or the password too short'),
    },
    handler: handlers.reset,
  }),
  defineRoute({
    method: 'get',
    path: '/api/common',
    access: 'authenticated',
    duringTwoFactorSetup: true,
    summary: 'The signed-in user',
    tags,
    responses: { 200: { description: 'The signed-in user', schema: Me }, 401: error('Not signed in') },
    handler: handlers.common,
  }),
];
