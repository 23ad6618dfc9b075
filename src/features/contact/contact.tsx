import { type FormEvent, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { sendContactMessage } from '../../api/public.ts';
import { ContactForm, contactLimits } from '../../contract/index.ts';
import { announceToast as toast } from '../../state/toast-channel.ts';
import { Button } from '../../ui/button.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit, type TwofoldEvent } from '../../ui/events.ts';
import { Field, TextAreaField } from '../../ui/field.tsx';
import { fieldErrors } from '../common.ts';
import { useCaptcha } from './use-captcha.ts';

/** What the host page hears when a message was sent (the message text itself stays out). */
export interface ContactSentDetail {
  name: string;
  email: string;
  organization: string;
  subject: string;
}

declare module '../../ui/events.ts' {
  interface TwofoldEventDetails {
    /** The contact form's message was accepted by the server. */
    'twofold-contact-sent': ContactSentDetail;
  }
}
declare global {
  interface GlobalEventHandlersEventMap {
    'twofold-contact-sent': TwofoldEvent<'twofold-contact-sent'>;
  }
}

/** spec (part 1, sections 2 and 8, Contact), word for word. */
export const contactTexts = {
  submit: 'Send Message',
  submitting: 'Sending...',
  captchaTitle: 'Verification failed',
  captcha: 'Please complete the reCAPTCHA verification.',
  sentTitle: 'Message sent!',
  sent: "We'll get back to you as soon as possible.",
  errorTitle: 'Error',
} as const;

type Values = Record<keyof typeof contactLimits, string>;
const empty: Values = { name: '', email: '', organization: '', subject: '', message: '' };

/** spec (part 1, section 2, Contact screen): Name, Email, Organization, Subject and Message, and Send Message. */
export function Contact() {
  const { host } = useElement();
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const captcha = useCaptcha();

  useEffect(() => {
    if (Object.keys(errors).length)
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const field = (key: keyof Values) => ({
    name: key,
    value: values[key],
    error: errors[key],
    maxLength: contactLimits[key],
    onChange: (event: { target: { value: string } }) => {
      // Read now, not in the updater, which may run after the event is done.
      const value = event.target.value;
      setValues((v) => ({ ...v, [key]: value }));
    },
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // spec (part 1, section 5): "Contact form (values trimmed)".
    const trimmed: Values = {
      name: values.name.trim(),
      email: values.email.trim(),
      organization: values.organization.trim(),
      subject: values.subject.trim(),
      message: values.message.trim(),
    };
    const parsed = ContactForm.safeParse(trimmed);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setLoading(true);
    try {
      const recaptchaToken = await captcha.token();
      if (!recaptchaToken) {
        toast({
          title: contactTexts.captchaTitle,
          description: contactTexts.captcha,
          variant: 'destructive',
        });
        return;
      }
      try {
        await sendContactMessage({ ...parsed.data, recaptchaToken });
      } catch (error) {
        toast({ title: contactTexts.errorTitle, description: errorMessage(error), variant: 'destructive' });
        return;
      } finally {
        // The server spends a solution on any attempt: solve a fresh one for the next.
        captcha.renew();
      }
      toast({ title: contactTexts.sentTitle, description: contactTexts.sent });
      const { message: _message, ...detail } = parsed.data;
      emit(host, 'twofold-contact-sent', detail);
      setValues(empty);
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="card contact" part="card">
      <header className="card__header">
        <p className="card__brand">Twofold</p>
        <h1 className="card__title">Contact Us</h1>
        <p className="muted">Questions about Twofold or your organization’s account? Send us a message.</p>
      </header>
      <form ref={formRef} className="contact__form" noValidate onSubmit={submit} aria-label="Contact us">
        <div className="contact__row">
          <Field label="Name" autoComplete="name" {...field('name')} />
          <Field label="Email" type="email" autoComplete="email" {...field('email')} />
        </div>
        <Field label="Organization" autoComplete="organization" {...field('organization')} />
        <Field label="Subject" autoComplete="off" {...field('subject')} />
        <TextAreaField label="Message" rows={6} {...field('message')} />
        <Button type="submit" block disabled={loading} part="submit-button">
          {loading ? contactTexts.submitting : contactTexts.submit}
        </Button>
      </form>
    </div>
  );
}
