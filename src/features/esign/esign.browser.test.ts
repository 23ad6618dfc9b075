import '../../../dist/elements/twofold-esign.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  type Call,
  control,
  jsonResponse,
  mockApi,
  mount,
  setValue,
  waitFor,
} from '../../../elements/browser-test-support.ts';

const realFetch = window.fetch;

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-esign, .esign-phone')) el.remove();
  window.fetch = realFetch;
});

const form = {
  donation_id: 41,
  donor: { name: 'Avery Fields', email: 'avery@example.org' },
  gift: { date: '2026-02-01', amount: 250, transaction_id: 'TX-41' },
  company: { name: 'Acme Biotech' },
  nonprofit: {
    name: 'Hope Harbor Foundation',
    ein: '12-3456789',
    address: ['12 Harbor Way', 'Portland, ME 04101'],
  },
  consent: 'I agree to sign this matching gift form electronically.',
  expires_at: '2026-03-01T12:00:00.000Z',
};

function server(
  view: object,
  sign: (call: Call) => Response = () =>
    jsonResponse(200, { message: 'Thanks, signed.', signed_at: '2026-02-10T10:00:00.000Z' }),
) {
  return mockApi((call) => {
    if (call.path === '/api/esign/tok-1' && call.method === 'GET') return jsonResponse(200, view);
    if (call.path === '/api/esign/tok-1' && call.method === 'POST') return sign(call);
    if (call.path === '/api/esign/tok-1/resend')
      return jsonResponse(200, { message: 'We emailed a new signing link to the address we have on file.' });
    return jsonResponse(404, { message: 'Not found' });
  });
}

const root = (el: HTMLElement) => el.shadowRoot as ShadowRoot;
const shows = (r: ShadowRoot, text: string) => (r.textContent ?? '').includes(text);

/** The element inside a 390 px-wide box, as on a phone. */
async function mountOnPhone() {
  const phone = document.createElement('div');
  phone.className = 'esign-phone';
  phone.style.width = '390px';
  document.body.append(phone);
  const el = await mount('twofold-esign', { token: 'tok-1' });
  phone.append(el);
  return { el, phone };
}

describe('<twofold-esign>', () => {
  it('shows the prefilled form, fits 390 px, has no axe violations, and signs with a typed name after consent', async () => {
    const calls = server({ state: 'open', message: null, form });
    const events: unknown[] = [];
    document.addEventListener('twofold-esign-signed', (e) => events.push(e.detail), { once: true });
    const { el, phone } = await mountOnPhone();
    await waitFor(() => shows(root(el), 'Avery Fields') && shows(root(el), 'Acme Biotech'), 'the form');
    for (const text of [
      '$250.00',
      'February 1, 2026',
      'TX-41',
      'EIN 12-3456789',
      '12 Harbor Way',
      form.consent,
    ])
      assert(shows(root(el), text), `shows ${text}`);
    assert(el.scrollWidth <= 390 && phone.scrollWidth <= 390, `fits 390 px (element ${el.scrollWidth})`);
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');

    setValue(control(root(el), 'Full name *'), 'Avery Fields');
    button(root(el), 'Sign the form')?.click();
    await waitFor(() => shows(root(el), 'Please agree to sign electronically.'), 'the consent error');
    assertEqual(calls.filter((c) => c.method === 'POST').length, 0, 'nothing sent without consent');

    (control(root(el), 'I agree to sign electronically') as HTMLInputElement).click();
    button(root(el), 'Sign the form')?.click();
    await waitFor(() => shows(root(el), 'Thank you! Your form is signed.'), 'the thanks');
    const post = calls.find((c) => c.method === 'POST');
    assertEqual(
      JSON.stringify(post?.body),
      JSON.stringify({ name: 'Avery Fields', consent: true }),
      'the signature sent',
    );
    assertEqual(
      JSON.stringify(events),
      JSON.stringify([{ matchId: 41, signedAt: '2026-02-10T10:00:00.000Z' }]),
      'the event',
    );
    await waitFor(
      () => root(el).activeElement?.textContent === 'Thank you! Your form is signed.',
      'focus on the thanks',
    );
  });

  it('offers a signature pad, and asks for a drawing before sending one', async () => {
    const calls = server({ state: 'open', message: null, form });
    const { el } = await mountOnPhone();
    await waitFor(() => shows(root(el), 'Avery Fields'), 'the form');
    (control(root(el), 'Draw my signature') as HTMLInputElement).click();
    await waitFor(() => root(el).querySelector('canvas[role="img"]'), 'the pad');
    assert(
      root(el).querySelector('canvas')?.getAttribute('aria-label')?.startsWith('Signature pad'),
      'the pad is labelled',
    );
    setValue(control(root(el), 'Full name *'), 'Avery Fields');
    (control(root(el), 'I agree to sign electronically') as HTMLInputElement).click();
    button(root(el), 'Sign the form')?.click();
    await waitFor(
      () => shows(root(el), 'Please type your full name or draw your signature.'),
      'the drawing error',
    );
    assertEqual(calls.filter((c) => c.method === 'POST').length, 0, 'nothing sent without a drawing');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations with the pad');
  });

  it('keeps strokes under the pointer after the pad is resized (a phone turned), and keeps what was drawn', async () => {
    server({ state: 'open', message: null, form });
    const { el, phone } = await mountOnPhone();
    await waitFor(() => shows(root(el), 'Avery Fields'), 'the form');
    (control(root(el), 'Draw my signature') as HTMLInputElement).click();
    const pad = await waitFor(
      () => root(el).querySelector<HTMLCanvasElement>('canvas[role="img"]'),
      'the pad',
    );
    const ratio = devicePixelRatio || 1;
    const sized = () => pad.width === Math.round(pad.getBoundingClientRect().width * ratio);
    await waitFor(sized, 'the pad sized to its box');
    const stroke = (from: [number, number], to: [number, number]) => {
      const rect = pad.getBoundingClientRect();
      const at = ([x, y]: [number, number]) => ({
        clientX: rect.left + x,
        clientY: rect.top + y,
        pointerId: 1,
        bubbles: true,
        composed: true,
      });
      pad.dispatchEvent(new PointerEvent('pointerdown', at(from)));
      pad.dispatchEvent(new PointerEvent('pointermove', at([(from[0] + to[0]) / 2, (from[1] + to[1]) / 2])));
      pad.dispatchEvent(new PointerEvent('pointermove', at(to)));
      pad.dispatchEvent(new PointerEvent('pointerup', at(to)));
    };
    /** Whether the pixel shown at (x, y) CSS pixels from the pad's corner is inked. */
    const inkedAt = (x: number, y: number) => {
      const rect = pad.getBoundingClientRect();
      const px = Math.floor((x * pad.width) / rect.width);
      const py = Math.floor((y * pad.height) / rect.height);
      return (pad.getContext('2d')?.getImageData(px, py, 1, 1).data[3] ?? 0) > 0;
    };
    const inkedAnywhere = () =>
      (pad.getContext('2d')?.getImageData(0, 0, pad.width, pad.height).data ?? []).some(
        (v, i) => i % 4 === 3 && v > 0,
      );
    stroke([20, 40], [60, 40]);
    assert(inkedAt(40, 40), 'the first stroke is under the pointer');
    // The phone turns: the pad gets narrower.
    phone.style.width = '260px';
    await waitFor(sized, 'the pad sized to its new box');
    assert(inkedAnywhere(), 'the first stroke is still there');
    stroke([150, 100], [200, 100]);
    assert(inkedAt(175, 100), 'a stroke after the resize lands under the pointer');
    assert(!inkedAt(175, 60), 'and nowhere else on its column');
  });

  it('an expired link says so and emails a new one on request', async () => {
    const calls = server({ state: 'expired', message: 'This signing link has expired.', form: null });
    const { el } = await mountOnPhone();
    await waitFor(() => shows(root(el), 'This signing link has expired.'), 'the expired message');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
    button(root(el), 'Email me a new link')?.click();
    await waitFor(() => shows(root(el), 'We emailed a new signing link'), 'the new link message');
    assert(
      calls.some((c) => c.path === '/api/esign/tok-1/resend' && c.method === 'POST'),
      'asked for a new link',
    );
    assert(!button(root(el), 'Email me a new link'), 'the button is gone once sent');
  });

  it('a signed form has nothing left to sign and offers no new link', async () => {
    server({ state: 'signed', message: 'This form has already been signed. Thank you!', form: null });
    const { el } = await mountOnPhone();
    await waitFor(() => shows(root(el), 'already been signed'), 'the signed message');
    assert(!button(root(el), 'Email me a new link'), 'no new link for a signed form');
    assert(!button(root(el), 'Sign the form'), 'no form');
  });
});
