import type { ContactRequest } from '../../../src/contract/contact.ts';
import { captchaFailedMessage } from '../../../src/contract/public.ts';
import { contactMessages } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { contactMail } from '../../mail/templates.ts';
import { spendSolution } from '../captcha/captcha.service.ts';

/**
 * Stores a contact message and queues it to the support address (replies to its author), in one
 * transaction with spending the captcha: all or nothing.
 */
export async function sendContactMessage(deps: Deps, input: ContactRequest): Promise<void> {
  const { recaptchaToken, ...message } = input;
  await deps.db.transaction(async (tx) => {
    if (!(await spendSolution(tx, deps.config.jwtSecret, recaptchaToken)))
      throw new HttpError(400, captchaFailedMessage);
    await tx.insert(contactMessages).values(message);
    await enqueueMail(tx, await contactMail({ to: deps.config.supportEmail, ...message }));
  });
}
