import { useSignals } from '@preact/signals-react/runtime';
import { format } from 'date-fns';
import { useEffect, useId, useRef, useState } from 'react';
import {
  billingPortalHref,
  billingPortalUrl,
  listBills,
  listInvoices,
  subscribeUrl,
} from '../../api/billing.ts';
import { errorMessage } from '../../api/client.ts';
import {
  type Bill,
  billUsageState,
  currentPlan,
  defaultPlan,
  type Invoice,
  invoiceStatusLabels,
  type Plan,
  perMatchRates,
  planById,
  plans,
} from '../../contract/billing.ts';
import { can, type Organization } from '../../contract/index.ts';
import { navigate } from '../../state/navigation.ts';
import { currentLevel, startOrganization } from '../../state/organization.ts';
import { initSession } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { authToken } from '../../state/token.ts';
import { Badge, type BadgeVariant } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { StatusBadge } from '../../ui/status-badge.tsx';
import { stripQueryParams } from '../common.ts';
import { type BillingNotice, billingNotice, billingTexts, noticeParams } from './billing.ts';
import { PaymentFailed } from './payment-failed.tsx';
import { StripeSetup } from './stripe-setup.tsx';

export interface BillingProps {
  /** 'plans' (default, /portal/billing) or 'stripe-setup' (/portal/stripe-setup). */
  view?: string;
}

/** Subscriptions and billing (spec part 2, section 2): the plans, the current one, and billing links. */
export function Billing({ view }: BillingProps) {
  useSignals();
  // A page embedding only this element starts the session and organization itself (no-ops in the portal).
  useEffect(() => {
    void initSession().then(() => startOrganization());
  }, []);
  if (view === 'stripe-setup') return <StripeSetup />;

  return (
    <OrganizationPage title={billingTexts.heading} className="billing">
      {(organization) => (
        <Plans organization={organization} isAdmin={can(currentLevel.value ?? 'none', 'billing.manage')} />
      )}
    </OrganizationPage>
  );
}

function Plans({ organization, isAdmin }: { organization: Organization; isAdmin: boolean }) {
  const [notice] = useState<BillingNotice | null>(() => billingNotice(globalThis.location?.search ?? ''));
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const explanationId = useId();
  const current = currentPlan(organization);
  const hasToken = authToken.value !== null;

  useEffect(() => {
    if (!notice) return;
    stripQueryParams(...noticeParams);
    // The outcome of the round trip is the first thing a keyboard or screen reader user meets.
    noticeRef.current?.focus();
  }, [notice]);

  /** Fetches the navigation's one-time link, then goes; a missing session logs and does nothing (spec). */
  const open = (link: Promise<string | null>) => {
    link.then(
      (url) => {
        if (url) navigate(url);
      },
      (error: unknown) =>
        toast({ title: billingTexts.linkFailed, description: errorMessage(error), variant: 'destructive' }),
    );
  };
  const choose = (plan: Plan) => open(subscribeUrl(organization.id, plan.id));

  return (
    <div className="billing__body">
      {notice ? (
        <p
          ref={noticeRef}
          tabIndex={-1}
          className={`billing__notice billing__notice--${notice.kind}`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
          part="notice"
        >
          {notice.text}
        </p>
      ) : null}
      {isAdmin ? <PaymentFailed organizationId={organization.id} /> : null}
      <p className="muted">{billingTexts.noMoney}</p>
      <CurrentPlanSummary organization={organization} current={current} />
      {organization.is_premium === 'parent' ? (
        <p className="billing__note">{billingTexts.parentCovered}</p>
      ) : null}
      {isAdmin ? null : (
        <p id={explanationId} className="billing__note">
          {billingTexts.adminsOnly}
        </p>
      )}
      <Bills organization={organization} />
      {isAdmin ? (
        <Invoices organizationId={organization.id} onManage={() => open(billingPortalUrl(organization.id))} />
      ) : null}
      <ul className="billing__plans" aria-label="Plans">
        {plans.map((plan) => {
          const isCurrent = current?.id === plan.id;
          const titleId = `${explanationId}-${plan.id}`;
          return (
            <li
              key={plan.id}
              className={[
                'billing__plan',
                plan.id === defaultPlan ? 'billing__plan--recommended' : '',
                isCurrent ? 'billing__plan--current' : '',
              ]
                .filter(Boolean)
                .join(' ')}
              aria-current={isCurrent ? 'true' : undefined}
              aria-labelledby={titleId}
              part="plan"
            >
              <div className="billing__plan-header">
                <h2 id={titleId} className="billing__plan-name">
                  {plan.name}
                </h2>
                {isCurrent ? <Badge variant="success">{billingTexts.currentPlan}</Badge> : null}
                {!isCurrent && plan.id === defaultPlan ? (
                  <Badge variant="info">{billingTexts.recommended}</Badge>
                ) : null}
              </div>
              <p className="billing__price">{plan.price}</p>
              <p className="billing__description">{plan.description}</p>
              {plan.kind === 'contact' ? (
                <a className="billing__contact" href="/portal/contact">
                  Talk to us about a custom plan
                </a>
              ) : isCurrent ? null : (
                <Button
                  variant={plan.id === defaultPlan ? 'primary' : 'secondary'}
                  disabled={!isAdmin}
                  aria-describedby={isAdmin ? undefined : explanationId}
                  onClick={() => choose(plan)}
                  part="choose-button"
                >
                  {plan.kind === 'free' ? 'Choose Free' : `Choose ${plan.name}`}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <footer className="billing__links">
        {isAdmin ? (
          <a
            className="billing__link"
            href={hasToken ? billingPortalHref(organization.id) : undefined}
            onClick={(event) => {
              // A plain click; a new tab or window keeps the href (through sign-in).
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                return;
              event.preventDefault();
              open(billingPortalUrl(organization.id));
            }}
            part="manage-billing"
          >
            {billingTexts.manageBilling}
          </a>
        ) : null}
        <a className="billing__link" href="/portal/stripe-setup">
          {billingTexts.stripeSetupLink}
        </a>
      </footer>
    </div>
  );
}

function CurrentPlanSummary({ organization, current }: { organization: Organization; current: Plan | null }) {
  const cancelled = organization.cancelled_at ? new Date(organization.cancelled_at) : null;
  let text: string;
  if (current) text = `Your organization is on the ${current.name} plan (${current.price}).`;
  else if (organization.is_premium === true && organization.plan)
    text = `Your organization is on a plan arranged with Twofold (${organization.plan}).`;
  else if (organization.is_premium === 'parent')
    text = 'Your organization is on its parent organization’s plan.';
  else text = 'Your organization has not chosen a plan yet.';
  return (
    <p className="billing__summary">
      {text}
      {cancelled && !Number.isNaN(cancelled.getTime()) && organization.is_premium !== true
        ? ` Your last subscription ended on ${format(cancelled, 'MMMM d, yyyy')}.`
        : ''}
    </p>
  );
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * The monthly bills of a per-match plan (server/modules/billing/bills.ts): each month's eligible
 * match requests, the refunds credited on it and what it comes to. Shown on a per-match plan, or
 * whenever there are bills from one.
 */
function Bills({ organization }: { organization: Organization }) {
  const [bills, setBills] = useState<Bill[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const titleId = useId();
  const perMatch = perMatchRates[organization.plan] !== undefined && organization.is_premium === true;

  useEffect(() => {
    let current = true;
    setBills(null);
    setFailure(null);
    listBills(organization.id)
      .then((answer) => current && setBills(answer.bills))
      .catch((error: unknown) => current && setFailure(errorMessage(error)));
    return () => {
      current = false;
    };
  }, [organization.id]);

  if (!perMatch && (bills === null || bills.length === 0) && failure === null) return null;
  return (
    <section className="billing__bills" aria-labelledby={titleId} part="bills">
      <h2 id={titleId} className="billing__bills-title">
        {billingTexts.billsTitle}
      </h2>
      <p className="billing__note">{billingTexts.billsExplained}</p>
      {failure !== null ? (
        <p role="alert" className="billing__notice billing__notice--error">
          {failure}
        </p>
      ) : bills === null ? (
        <Skeleton label={billingTexts.billsLoading} lines={3} />
      ) : bills.length === 0 ? (
        <p className="muted">{billingTexts.noBills}</p>
      ) : (
        // Scrolls sideways on a phone; a scrollable region must take focus so the keyboard can
        // scroll it too (axe: scrollable-region-focusable).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
        <section className="table-scroll" aria-label="Bills by month" tabIndex={0}>
          <table className="billing__bills-table">
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Plan</th>
                <th scope="col" className="billing__numeric">
                  Match requests
                </th>
                <th scope="col" className="billing__numeric">
                  Refunds
                </th>
                <th scope="col" className="billing__numeric">
                  Amount
                </th>
                <th scope="col">State</th>
                <th scope="col">Stripe</th>
              </tr>
            </thead>
            <tbody>
              {bills.map((bill) => (
                <tr key={bill.id}>
                  <td>{format(new Date(bill.period_start), 'MMMM yyyy')}</td>
                  <td>{planById(bill.plan)?.name ?? bill.plan}</td>
                  <td className="billing__numeric">
                    {bill.requests} ({dollars.format(bill.matched)})
                  </td>
                  <td className="billing__numeric">
                    {bill.refunds} ({dollars.format(bill.refunded)})
                  </td>
                  <td className="billing__numeric">{dollars.format(bill.amount)}</td>
                  <td data-label="State">
                    <StatusBadge bill={bill.issued_at ? 'issued' : 'open'} />
                  </td>
                  <td data-label="Stripe">
                    <UsageState bill={bill} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}

/**
 * Whether Stripe has a bill's usage (issue #27): every match on it (and every refund credited on
 * it) is a meter event. A plain Badge, not StatusBadge: StatusBadge ships in the portal's first
 * load, and these states are the billing page's alone.
 */
const usageStates: Record<ReturnType<typeof billUsageState>, { label: string; variant: BadgeVariant }> = {
  none: { label: 'Not reported', variant: 'neutral' },
  reported: { label: 'Reported', variant: 'success' },
  pending: { label: 'Pending', variant: 'info' },
  failed: { label: 'Failed', variant: 'danger' },
};

function UsageState({ bill }: { bill: Bill }) {
  const state = billUsageState(bill);
  const { reported, pending, failed, last_error } = bill.usage;
  const total = reported + pending + failed;
  return (
    <div className="billing__usage">
      <Badge variant={usageStates[state].variant}>{usageStates[state].label}</Badge>
      {total > 0 ? (
        <span className="billing__usage-count">
          {reported} of {total} reported
        </span>
      ) : null}
      {state !== 'reported' && last_error ? <span className="billing__usage-error">{last_error}</span> : null}
    </div>
  );
}

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

/** The organization's Stripe invoices, and the way to Stripe's portal for payment methods (admins). */
function Invoices({ organizationId, onManage }: { organizationId: number; onManage: () => void }) {
  const [invoices, setInvoices] = useState<Invoice[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const titleId = useId();

  useEffect(() => {
    let current = true;
    setInvoices(null);
    setFailure(null);
    listInvoices(organizationId)
      .then((answer) => current && setInvoices(answer.invoices))
      .catch((error: unknown) => current && setFailure(errorMessage(error)));
    return () => {
      current = false;
    };
  }, [organizationId]);

  return (
    <section className="billing__invoices" aria-labelledby={titleId} part="invoices">
      <div className="billing__invoices-header">
        <h2 id={titleId} className="billing__bills-title">
          {billingTexts.invoicesTitle}
        </h2>
        <Button variant="secondary" onClick={onManage} part="payment-methods-button">
          {billingTexts.paymentMethods}
        </Button>
      </div>
      {failure !== null ? (
        <p role="alert" className="billing__notice billing__notice--error">
          {failure}
        </p>
      ) : invoices === null ? (
        <Skeleton label={billingTexts.invoicesLoading} lines={2} />
      ) : invoices.length === 0 ? (
        <p className="muted">{billingTexts.noInvoices}</p>
      ) : (
        // Scrolls sideways on a phone, like the bills (a focusable scroll region for the keyboard).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
        <section className="table-scroll" aria-label="Invoices by date" tabIndex={0}>
          <table className="billing__bills-table billing__invoices-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Invoice</th>
                <th scope="col" className="billing__numeric">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Link</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr key={invoice.id}>
                  <td data-label="Date">{format(new Date(invoice.created), 'MMMM d, yyyy')}</td>
                  <td data-label="Invoice">{invoice.number ?? invoice.id}</td>
                  <td data-label="Amount" className="billing__numeric">
                    {money(invoice.total, invoice.currency)}
                  </td>
                  <td data-label="Status">
                    <Badge
                      variant={
                        invoice.status === 'paid'
                          ? 'success'
                          : invoice.status === 'open'
                            ? 'warning'
                            : 'neutral'
                      }
                    >
                      {invoiceStatusLabels[invoice.status] ?? invoice.status}
                    </Badge>
                  </td>
                  <td data-label="Link">
                    {invoice.hosted_invoice_url ? (
                      <a href={invoice.hosted_invoice_url} target="_blank" rel="noopener noreferrer">
                        View invoice {invoice.number ?? ''}
                        <span className="visually-hidden"> (opens in a new tab)</span>
                      </a>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
