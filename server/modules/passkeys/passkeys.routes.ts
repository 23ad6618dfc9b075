import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  Passkey,
  PasskeyList,
  PasskeyOptions,
  PasskeyRegisterRequest,
  PasskeyRenameRequest,
  PasskeySignInOptionsRequest,
  PasskeySignInRequest,
  PasskeySignInResponse,
} from '../../../src/contract/passkeys.ts';
import { idSegment } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as passkeys from './passkeys.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['passkeys'];
const PasskeyParams = z.object({ passkeyId: idSegment });

export const passkeysRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/account/passkeys',
    access: 'authenticated',
    // A member whose organization requires two-factor sign-in may add a passkey to meet it.
    duringTwoFactorSetup: true,
    summary: 'The signed-in user’s passkeys',
    tags,
    responses: { 200: { description: 'Passkeys, oldest first', schema: PasskeyList } },
    handler: ({ deps, user }) => passkeys.listPasskeys(deps.db, user.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/passkeys/options',
    access: 'authenticated',
    // A member whose organization requires two-factor sign-in may add a passkey to meet it.
    duringTwoFactorSetup: true,
    summary: 'Options for adding a passkey (WebAuthn creation options with a single-use challenge)',
    tags,
    responses: { 200: { description: 'PublicKeyCredentialCreationOptionsJSON', schema: PasskeyOptions } },
    handler: ({ deps, user }) => passkeys.registrationOptions(deps, user),
  }),
  defineRoute({
    method: 'post',
    path: '/api/account/passkeys',
    access: 'authenticated',
    // A member whose organization requires two-factor sign-in may add a passkey to meet it.
    duringTwoFactorSetup: true,
    summary: 'Add a passkey: the authenticator’s answer to the options',
    tags,
    body: PasskeyRegisterRequest,
    successStatus: 201,
    responses: {
      201: { description: 'The passkey', schema: Passkey },
      400: error('The challenge was used or expired, or the answer could not be verified'),
      409: error('This passkey is already registered'),
    },
    handler: ({ deps, user, body, ip, c }) =>
      passkeys.registerPasskey(deps, user, body, { ip, userAgent: c.req.header('user-agent') }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/account/passkeys/:passkeyId',
    access: 'authenticated',
    // A member whose organization requires two-factor sign-in may add a passkey to meet it.
    duringTwoFactorSetup: true,
    summary: 'Rename one of the signed-in user’s passkeys',
    tags,
    params: PasskeyParams,
    body: PasskeyRenameRequest,
    responses: { 200: { description: 'The passkey', schema: Passkey }, 404: error('Passkey not found') },
    handler: ({ deps, user, params, body }) =>
      passkeys.renamePasskey(deps.db, user.id, params.passkeyId, body.name),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/account/passkeys/:passkeyId',
    access: 'authenticated',
    // A member whose organization requires two-factor sign-in may add a passkey to meet it.
    duringTwoFactorSetup: true,
    summary: 'Remove one of the signed-in user’s passkeys',
    tags,
    params: PasskeyParams,
    responses: {
      200: { description: 'The passkeys left', schema: PasskeyList },
      404: error('Passkey not found'),
    },
    handler: ({ deps, user, params, ip, c }) =>
      passkeys.removePasskey(deps, user, params.passkeyId, { ip, userAgent: c.req.header('user-agent') }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/passkey/options',
    access: 'anonymous',
    summary: 'Options for signing in with a passkey (with an email: that account’s passkeys)',
    tags,
    body: PasskeySignInOptionsRequest,
    bodyKind: 'optional-json',
    rateLimit: { ipFactor: 5 },
    responses: {
      200: { description: 'PublicKeyCredentialRequestOptionsJSON', schema: PasskeyOptions },
      429: error('Too many attempts'),
    },
    handler: ({ deps, body }) => passkeys.signInOptions(deps, body.email),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/passkey',
    access: 'anonymous',
    summary: 'Sign in with a passkey alone (it is both factors)',
    tags,
    body: PasskeySignInRequest,
    rateLimit: { failuresOnly: true },
    responses: {
      200: { description: 'Signed in', schema: PasskeySignInResponse },
      400: error('The challenge was used or expired'),
      401: error('Unknown passkey, or its signature or counter is wrong'),
      403: error('The organization requires single sign-on for this email address'),
    },
    handler: ({ deps, body, ip, c }) =>
      passkeys.signInWithPasskey(deps, body, { ip, userAgent: c.req.header('user-agent') }),
  }),
];
