/**
 * spec (part 2, section 2): "/portal/stripe-setup: an instruction page (steps 1 to 5) for entering
 * a card payment provider's publishable and restricted keys." Donations paid by card on the
 * nonprofit's own pages go to the nonprofit's own Stripe account; Twofold never holds the money.
 */
export function StripeSetup() {
  return (
    <section className="billing stripe-setup" aria-labelledby="stripe-setup-title">
      <header className="billing__header" part="header">
        <h1 id="stripe-setup-title" className="billing__title">
          Set up card payments with Stripe
        </h1>
        <p className="muted">
          Five steps to accept card donations through your own Stripe account. Donations go straight to your
          bank account: Twofold never receives or holds the money.
        </p>
      </header>
      <ol className="stripe-setup__steps">
        <li className="stripe-setup__step">
          <h2 className="stripe-setup__title">Step 1: Create a Stripe account</h2>
          <p>
            Sign up at{' '}
            <a href="https://dashboard.stripe.com/register" target="_blank" rel="noopener noreferrer">
              dashboard.stripe.com/register
            </a>{' '}
            (opens in a new tab) with your organization’s legal name and EIN, and add the bank account
            donations should be paid into. Stripe checks these details before it pays out.
          </p>
        </li>
        <li className="stripe-setup__step">
          <h2 className="stripe-setup__title">Step 2: Find your publishable key</h2>
          <p>
            In the Stripe Dashboard open <strong>Developers</strong>, then <strong>API keys</strong>. Copy the{' '}
            <strong>Publishable key</strong>: it starts with <code>pk_live_</code> (or <code>pk_test_</code>{' '}
            in test mode). It is safe to show on web pages.
          </p>
        </li>
        <li className="stripe-setup__step">
          <h2 className="stripe-setup__title">Step 3: Create a restricted key</h2>
          <p>
            On the same page choose <strong>Create restricted key</strong>, name it "Twofold" and give it only
            what donations need: <strong>Write</strong> on Checkout Sessions, Customers and PaymentIntents,
            and <strong>None</strong> on everything else. Create it and copy the key, which starts with{' '}
            <code>rk_live_</code>. Stripe shows it only once; keep it private and never put it on a web page.
          </p>
        </li>
        <li className="stripe-setup__step">
          <h2 className="stripe-setup__title">Step 4: Paste both keys into Twofold</h2>
          <p>
            Open <a href="/portal/organization-details?tab=settings">Organization → Settings</a>, paste the
            publishable key and the restricted key into their fields and save. Twofold stores the restricted
            key encrypted and never shows it again; to change it, delete it and enter the new one.
          </p>
        </li>
        <li className="stripe-setup__step">
          <h2 className="stripe-setup__title">Step 5: Test a donation</h2>
          <p>
            Make a small donation on your own donation page, then find it under <strong>Payments</strong> in
            the Stripe Dashboard. With test keys use the card number 4242 4242 4242 4242, any future expiry
            date and any CVC; switch to your live keys once the test donation arrives.
          </p>
        </li>
      </ol>
      <p>
        <a className="billing__link" href="/portal/billing">
          Back to plans and billing
        </a>
      </p>
    </section>
  );
}
