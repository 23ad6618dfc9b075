import { MessageResponse } from '../../../src/contract/auth.ts';
import { ContactRequest } from '../../../src/contract/contact.ts';
import { contactSentMessage } from '../../../src/contract/public.ts';
import { defineRoute } from '../../http/route.ts';
import { sendContactMessage } from './contact.service.ts';

export const contactRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/contact-form',
    access: 'anonymous',
    cors: true,
    summary: 'Send a message to support (with a solved captcha challenge as recaptchaToken)',
    tags: ['contact'],
    body: ContactRequest,
    rateLimit: {},
    responses: {
      200: { description: 'Message sent', schema: MessageResponse },
      400: {
        description: 'Invalid input, or Verification failed. Please try again.',
        schema: MessageResponse,
      },
      429: { description: 'Too many attempts', schema: MessageResponse },
    },
    handler: async ({ deps, body }) => {
      await sendContactMessage(deps, body);
      return { message: contactSentMessage };
    },
  }),
];
