import { useEffect, useId, useState } from 'react';
import * as z from 'zod/mini';
import { errorMessage, getApiBase, request } from '../../api/client.ts';
import { navigate } from '../../state/navigation.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';

/**
 * The dashboard's notice that the subscription's last payment failed (issue #27), for admins,
 * with the way to Stripe's customer portal. The billing page shows the same facts
 * (src/features/billing/payment-failed.tsx). This one is the dashboard's own on purpose: a module
 * both screens imported would become one more chunk named in the portal's first load, which has
 * no room left; so it reads GET .../subscription with its own small schema and words.
 */
const Subscription = z.object({
  status: z.nullable(z.string()),
  payment_failed: z.boolean(),
  can_manage: z.boolean(),
});
const Link = z.object({ url: z.string() });

export function PaymentNotice({ organizationId }: { organizationId: number }) {
  const [subscription, setSubscription] = useState<z.infer<typeof Subscription> | null>(null);
  const titleId = useId();

  useEffect(() => {
    let current = true;
    setSubscription(null);
    // A failed check shows nothing: the dashboard has other work to show, and the billing page has the facts.
    request(Subscription, `api/organization/${organizationId}/subscription`)
      .then((answer) => current && setSubscription(answer))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [organizationId]);

  if (!subscription?.payment_failed) return null;
  // A five-minute link for this one navigation (never the session token in a URL), as the billing page does.
  const openPortal = () =>
    request(Link, `api/organization/${organizationId}/billing-link`, {
      searchParams: { action: 'portal' },
    }).then(
      ({ url }) => navigate(new URL(url, `${getApiBase()}/`).toString()),
      (error: unknown) =>
        toast({
          title: 'Could not open billing. Please try again.',
          description: errorMessage(error),
          variant: 'destructive',
        }),
    );
  return (
    <section className="payment-failed" role="alert" aria-labelledby={titleId} part="payment-failed">
      <h2 id={titleId} className="payment-failed__title">
        Your last payment did not go through
      </h2>
      <p>
        {subscription.status === 'unpaid'
          ? 'Stripe has stopped retrying the payment. Update your payment method to settle the invoice; your data is safe, and the plan continues once it is paid.'
          : 'Stripe will try the card again over the next days. Update your payment method so your plan continues; nothing is lost in the meantime.'}
      </p>
      {subscription.can_manage ? (
        <Button variant="primary" onClick={() => void openPortal()} part="update-payment-button">
          Update payment method
        </Button>
      ) : null}
    </section>
  );
}
