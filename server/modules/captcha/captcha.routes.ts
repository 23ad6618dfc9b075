import { MessageResponse } from '../../../src/contract/auth.ts';
import { CaptchaChallenge } from '../../../src/contract/public.ts';
import { defineRoute } from '../../http/route.ts';
import { newChallenge } from './captcha.service.ts';

export const captchaRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/captcha/challenge',
    access: 'anonymous',
    cors: true,
    summary: 'An ALTCHA proof-of-work challenge (10 minutes) for the contact form',
    tags: ['contact'],
    // Every page showing the contact form asks for one; sending is limited more tightly.
    rateLimit: { ipFactor: 3 },
    responses: {
      200: { description: 'The challenge', schema: CaptchaChallenge },
      429: { description: 'Too many attempts', schema: MessageResponse },
    },
    handler: ({ deps }) => newChallenge(deps.config.jwtSecret),
  }),
];
