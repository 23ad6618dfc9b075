import { useEffect, useId, useState } from 'react';
import { billingPortalUrl, getSubscription } from '../../api/billing.ts';
import { errorMessage } from '../../api/client.ts';
import { paymentFailedTexts, type SubscriptionResponse } from '../../contract/billing.ts';
import { navigate } from '../../state/navigation.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';

/**
 * The subscription's last payment failed (Stripe says past_due or unpaid): admins see why and a
 * button to Stripe's customer portal to update the payment method (through a five-minute billing
 * link, never the session token in a URL). Shown on the billing page and the dashboard; nothing
 * for readers and writers (the caller renders it for admins only) or when all is well.
 */
export function PaymentFailed({ organizationId }: { organizationId: number }) {
  const [subscription, setSubscription] = useState<SubscriptionResponse | null>(null);
  const titleId = useId();

  useEffect(() => {
    let current = true;
    setSubscription(null);
    // A failed status check shows nothing: the billing page has the same facts in Stripe's portal.
    getSubscription(organizationId)
      .then((answer) => current && setSubscription(answer))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [organizationId]);

  if (!subscription?.payment_failed) return null;
  const openPortal = () =>
    billingPortalUrl(organizationId).then(
      (url) => {
        if (url) navigate(url);
      },
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
        {paymentFailedTexts.title}
      </h2>
      <p>{subscription.status === 'unpaid' ? paymentFailedTexts.unpaid : paymentFailedTexts.past_due}</p>
      {subscription.can_manage ? (
        <Button variant="primary" onClick={() => void openPortal()} part="update-payment-button">
          {paymentFailedTexts.action}
        </Button>
      ) : null}
    </section>
  );
}
