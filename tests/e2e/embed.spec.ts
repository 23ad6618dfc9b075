import { expect, type Locator, type Page, test } from '@playwright/test';
import { demoPassword, expectNoAxeViolations, linkFromMailbox } from './support.ts';

/**
 * The embed kit on a foreign page: demo/embed, served by scripts/embed-server.mjs on 127.0.0.1 at
 * E2E_PORT + 1000 (playwright.config.ts), with a hostile stylesheet; the API is on localhost.
 */
function origins(baseURL: string | undefined) {
  const api = new URL(baseURL ?? 'http://localhost:8799');
  return { api: api.origin, embed: `http://127.0.0.1:${Number(api.port) + 1000}` };
}

/** Default theme: the FAQ, donor edit and matching page; themed: a FAQ and a form in each variant. */
const publicElements = [
  '#faq',
  '#donor-match-update',
  '#match-request',
  '#faq-plum',
  '#contact',
  '#faq-sunset',
  '#registration',
];

/** Computed style of the first element matching `selector` inside the element's shadow root. */
function styleIn(host: Locator, selector: string, properties: string[]) {
  return host.evaluate(
    (el, [sel, props]) => {
      const target = el.shadowRoot?.querySelector(sel as string);
      if (!target) return null;
      const style = getComputedStyle(target);
      return Object.fromEntries((props as string[]).map((p) => [p, style.getPropertyValue(p)]));
    },
    [selector, properties] as const,
  );
}

async function openEmbedPage(page: Page, embed: string, query = '') {
  await page.goto(`${embed}/${query}`);
  for (const id of publicElements) {
    await expect(page.locator(`${id} .twofold-root > *`).first()).toBeVisible();
  }
}

/** A fresh match of Hope Harbor Foundation (through the staff API), with a donor of its own. */
async function freshMatch(page: Page) {
  const login = await page.request.post('/api/auth/login', {
    data: { email: 'admin@twofold.test', password: demoPassword },
  });
  const { access_token: token, me } = await login.json();
  const orgId = me.orgs.find((o: { name: string }) => o.name === 'Hope Harbor Foundation').id as number;
  const email = `embed-donor-${Date.now()}@example.org`;
  const created = await page.request.post(`/api/organization/${orgId}/donation`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      donated_at: '2025-07-01T12:00:00Z',
      amount: 60,
      donor: { name: 'Elliot Embed', email },
      company_id: null,
      company_name: 'Unknown Employer Co',
    },
  });
  expect(created.ok()).toBe(true);
  return { id: (await created.json()).donation.id as number, email };
}

test('every public element renders on a foreign origin with a hostile stylesheet, in its own styles', async ({
  page,
  baseURL,
}) => {
  const { api, embed } = origins(baseURL);
  expect(new URL(embed).origin).not.toBe(api);
  await openEmbedPage(page, embed);

  // The hostile stylesheet is really on: the page's own heading is 40px+ Comic Sans in red.
  const hostHeading = await page
    .locator('main > h1')
    .evaluate((h) => [getComputedStyle(h).fontFamily, getComputedStyle(h).color]);
  expect(hostHeading[0]).toContain('Comic Sans');
  expect(hostHeading[1]).toBe('rgb(255, 0, 0)');

  const faq = page.locator('#faq');
  await expect(faq.getByRole('heading', { name: 'Frequently Asked Questions', level: 1 })).toBeVisible();
  await expect(
    page.locator('#donor-match-update').getByRole('heading', { name: 'Edit Your Match Request' }),
  ).toBeVisible();
  await expect(page.locator('#match-request').getByRole('heading', { level: 1 })).toBeVisible();
  await expect(
    page.locator('#registration').getByRole('heading', { name: 'Register Your Nonprofit' }),
  ).toBeVisible();
  await expect(page.locator('#contact').getByRole('heading', { name: 'Contact Us' })).toBeVisible();

  // Inside, every element keeps its own typography and colours: nothing inherited or matched leaks in.
  for (const id of publicElements) {
    const themed = !['#faq', '#donor-match-update', '#match-request'].includes(id);
    const title = await styleIn(page.locator(id), 'h1', [
      'font-family',
      'font-size',
      'color',
      'letter-spacing',
      'text-transform',
      'font-style',
      'text-shadow',
      'display',
    ]);
    expect(title, id).not.toBeNull();
    // The themed variants bring their own typeface (next test); the rest keep ours.
    expect(title?.['font-family'], id).toMatch(themed ? /^(Georgia|Verdana)/ : /^"?Inter"?,/);
    expect(title?.['font-family'], id).not.toContain('Comic');
    expect(title?.['font-size'], id).toBe('22px');
    expect(title?.color, id).toBe('rgb(28, 36, 48)');
    expect(title?.['letter-spacing'], id).toBe('normal');
    expect(title?.['text-transform'], id).toBe('none');
    expect(title?.['font-style'], id).toBe('normal');
    expect(title?.['text-shadow'], id).toBe('none');
    expect(title?.display, id).toBe('block');
  }
  // Buttons, inputs and labels the host hides or moves are all there inside.
  expect((await styleIn(faq, '.faq__toggle', ['display', 'visibility']))?.display).toBe('flex');
  await expect(faq.getByRole('button', { name: 'What is Twofold, and what does it do?' })).toBeVisible();
  const contact = page.locator('#contact');
  await expect(contact.getByLabel('Email')).toBeVisible();
  await expect(contact.getByRole('button', { name: 'Send Message' })).toBeVisible();
  expect((await styleIn(contact, 'label', ['visibility', 'position']))?.visibility).toBe('visible');
  expect((await styleIn(contact, 'input', ['display']))?.display).not.toBe('none');
  await expect(
    page.locator('#registration').getByRole('button', { name: 'Complete Registration' }),
  ).toBeVisible();
  // A closed FAQ answer stays hidden although the host forces [hidden] to display.
  await expect(faq.locator('.faq__answer').first()).toBeHidden();
  // The default theme ignores the host's :root --twofold-* values.
  expect((await styleIn(faq, '.faq__wordmark', ['color']))?.color).toBe('rgb(15, 110, 110)');
  expect((await styleIn(faq, '.twofold-root', ['font-size']))?.['font-size']).toBe('15px');
});

test('--twofold-* custom properties on the element theme it (two variants)', async ({ page, baseURL }) => {
  const { embed } = origins(baseURL);
  await openEmbedPage(page, embed);
  const plum = 'rgb(109, 40, 217)';
  const sunset = 'rgb(180, 83, 9)';

  const faqPlum = page.locator('#faq-plum');
  expect((await styleIn(faqPlum, '.faq__wordmark', ['color']))?.color).toBe(plum);
  expect((await styleIn(faqPlum, '.twofold-root', ['font-family']))?.['font-family']).toMatch(/^Georgia/);
  expect((await styleIn(faqPlum, '.faq', ['border-radius']))?.['border-radius']).toBe('0px');
  await expect(faqPlum.locator('[part="badge"]')).toHaveText('Globex');
  await expect(faqPlum.getByRole('button', { name: 'What is the role of Apex Leadership?' })).toBeVisible();

  const contactPlum = page.locator('#contact');
  const send = await styleIn(contactPlum, 'button[type="submit"]', [
    'background-color',
    'border-radius',
    'font-family',
  ]);
  expect(send?.['background-color']).toBe(plum);
  expect(send?.['border-radius']).toBe('0px');
  expect(send?.['font-family']).toMatch(/^Georgia/);

  const faqSunset = page.locator('#faq-sunset');
  expect((await styleIn(faqSunset, '.faq__wordmark', ['color']))?.color).toBe(sunset);
  const panel = await styleIn(faqSunset, '.faq', ['border-radius', 'background-color']);
  expect(panel?.['border-radius']).toBe('20px');
  expect(panel?.['background-color']).toBe('rgb(255, 251, 235)');
  await expect(faqSunset.getByRole('button', { name: 'How does matching work with Initech?' })).toBeVisible();

  const registrationSunset = page.locator('#registration');
  const complete = await styleIn(registrationSunset, 'button[type="submit"]', [
    'background-color',
    'border-radius',
  ]);
  expect(complete?.['background-color']).toBe(sunset);
  expect(complete?.['border-radius']).toBe('20px');

  // The unthemed FAQ above them keeps the defaults.
  const plain = await styleIn(page.locator('#faq'), '.faq', ['border-radius', 'background-color']);
  expect(plain).toEqual({ 'border-radius': '8px', 'background-color': 'rgb(255, 255, 255)' });
});

test('axe finds no violations on the foreign page, elements included', async ({ page, baseURL }) => {
  const { embed } = origins(baseURL);
  await openEmbedPage(page, embed);
  await page.locator('#faq').getByRole('button', { name: 'What is Twofold, and what does it do?' }).click();
  await expectNoAxeViolations(page);
});

test('the FAQ asks for the donor link cross-origin and sends the donor to the hosted portal', async ({
  page,
  context,
  baseURL,
}) => {
  const { api, embed } = origins(baseURL);
  const match = await freshMatch(page);
  await openEmbedPage(page, embed, `?di=${match.id}&de=${encodeURIComponent(match.email)}`);
  const faq = page.locator('#faq');
  await faq
    .getByRole('button', { name: 'My name, email or company is wrong on my match request. How do I fix it?' })
    .click();

  const otp = page.waitForResponse((r) => r.url().startsWith(`${api}/api/auth/otp?`));
  await faq.getByRole('button', { name: 'Email me a secure link to correct my match request' }).click();
  const response = await otp;
  expect(response.status()).toBe(200);
  expect(await response.request().headerValue('origin')).toBe(embed);
  expect(await response.headerValue('access-control-allow-origin')).toBe('*');
  expect(new URL(response.url()).searchParams.get('redirect')).toBe(`/donor-match-update/${match.id}`);

  // portal-base defaults to the api-base origin: the donor lands on the hosted donor page.
  await page.waitForURL(`${api}/portal/donor-match-update/${match.id}`);
  await expect(page.getByRole('heading', { name: 'Edit Your Match Request', level: 1 })).toBeVisible();
  expect(await linkFromMailbox(context, match.email, `/portal/donor-match-update/${match.id}`)).toContain(
    'token=',
  );
});

test('registration and contact succeed cross-origin from the foreign page', async ({ page, baseURL }) => {
  const { api, embed } = origins(baseURL);
  await openEmbedPage(page, embed);

  const unique = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const registration = page.locator('#registration');
  await registration
    .getByLabel('Organization Name', { exact: true })
    .fill(`Embedded Pantry ${unique.slice(-6)}`);
  await registration.getByLabel('Organization Type').selectOption({ label: 'Nonprofit' });
  await registration.getByLabel('EIN', { exact: true }).fill(`${unique.slice(-9, -7)}-${unique.slice(-7)}`);
  await registration.getByLabel('Phone', { exact: true }).fill('(555) 010-0199');
  await registration.getByLabel('Website', { exact: true }).fill('https://pantry.example.org');
  await registration.getByLabel('Mission Statement').fill('Groceries for neighbours.');
  await registration.getByLabel('Street Address', { exact: true }).fill('3 Elm Street');
  await registration.getByLabel('City', { exact: true }).fill('Salem');
  await registration.getByLabel('Country', { exact: true }).selectOption('US');
  await registration.getByLabel('Foodbanks', { exact: true }).check();
  await registration.getByLabel('Contact Name', { exact: true }).fill('Embedded Admin');
  await registration.getByLabel('Contact Email', { exact: true }).fill(`admin-${unique}@pantry.example`);
  const registered = page.waitForResponse((r) => r.url() === `${api}/organization/register`);
  await registration.getByRole('button', { name: 'Complete Registration' }).click();
  expect((await registered).status()).toBe(200);
  await expect(registration.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible();

  const contact = page.locator('#contact');
  await contact.getByLabel('Name').fill('Casey Partner');
  await contact.getByLabel('Email').fill('casey@partner.example');
  await contact.getByLabel('Organization').fill('Riverside Community School');
  await contact.getByLabel('Subject').fill('Embedding question');
  await contact.getByLabel('Message').fill('Does the FAQ work on our site? It seems to.');
  const sent = page.waitForResponse(
    (r) => r.url() === `${api}/api/contact-form` && r.request().method() === 'POST',
  );
  await contact.getByRole('button', { name: 'Send Message' }).click();
  const answer = await sent;
  expect(answer.status()).toBe(200);
  expect(await answer.headerValue('access-control-allow-origin')).toBe('*');
  await expect(page.locator('twofold-toaster').getByText('Message sent!')).toBeVisible();
});

test('CORS is open on exactly the public endpoints: a staff route refuses the foreign page', async ({
  page,
  baseURL,
}) => {
  const { api, embed } = origins(baseURL);
  const preflight = (path: string, method: string, headers = 'content-type') =>
    page.request.fetch(`${api}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin: embed,
        'access-control-request-method': method,
        'access-control-request-headers': headers,
      },
    });
  const open: [string, string][] = [
    ['/api/auth/otp', 'GET'],
    ['/api/contact-form', 'POST'],
    ['/api/captcha/challenge', 'GET'],
    ['/api/csrf-token', 'GET'],
    ['/organization/register', 'POST'],
    ['/api/public/organization-search', 'GET'],
    ['/search/company-name/acme', 'GET'],
    ['/api/donor/session', 'POST'],
    ['/api/donor/donation/1', 'GET'],
    ['/api/public/match/hope-harbor%20foundation', 'GET'],
  ];
  for (const [path, method] of open) {
    const res = await preflight(path, method, 'content-type, authorization, x-csrf-token');
    expect(res.headers()['access-control-allow-origin'], path).toBe('*');
  }
  const closed: [string, string][] = [
    ['/api/auth/login', 'POST'],
    ['/api/auth/otp/verify', 'POST'],
    ['/api/auth/common', 'GET'],
    ['/api/organization/1', 'GET'],
    ['/api/organization/1/donation', 'GET'],
    ['/api/donation/1', 'PUT'],
    ['/api/donation/confirm', 'POST'],
  ];
  for (const [path, method] of closed) {
    const res = await preflight(path, method, 'content-type, authorization');
    expect(res.headers()['access-control-allow-origin'], path).toBeUndefined();
  }

  // And from the foreign page itself, the browser refuses to hand it a staff answer.
  const { embed: embedOrigin } = origins(baseURL);
  await page.goto(`${embedOrigin}/`);
  const outcomes = await page.evaluate(async (apiOrigin) => {
    const attempt = async (path: string, init?: RequestInit) => {
      try {
        const res = await fetch(`${apiOrigin}${path}`, init);
        return `answered ${res.status}`;
      } catch (error) {
        return error instanceof TypeError ? 'refused' : String(error);
      }
    };
    return {
      staffWithToken: await attempt('/api/organization/1', { headers: { authorization: 'Bearer x' } }),
      staffSimple: await attempt('/api/organization/1'),
      login: await attempt('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@twofold.test', password: 'twofold-demo' }),
      }),
      publicCall: await attempt('/api/captcha/challenge'),
    };
  }, api);
  expect(outcomes).toEqual({
    staffWithToken: 'refused',
    staffSimple: 'refused',
    login: 'refused',
    publicCall: 'answered 200',
  });
});

test('the public elements share one runtime: fetched once from the API origin, with CORS', async ({
  page,
  baseURL,
}) => {
  const { api, embed } = origins(baseURL);
  const fetched: { url: string; allowOrigin: string | undefined }[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/elements/'))
      fetched.push({ url: response.url(), allowOrigin: response.headers()['access-control-allow-origin'] });
  });
  await openEmbedPage(page, embed);
  const runtime = `${api}/elements/twofold-public-runtime.js`;
  // The public elements, each with its own script tag; the runtime they import, once.
  expect(fetched.filter((f) => f.url === runtime)).toEqual([{ url: runtime, allowOrigin: '*' }]);
  for (const name of [
    'faq',
    'donor-match-update',
    'match-request',
    'registration',
    'contact',
    'company-lookup',
  ]) {
    expect(fetched.filter((f) => f.url === `${api}/elements/twofold-${name}.js`)).toHaveLength(1);
  }
  // The public elements carry no React: the only React on the page is the staff toaster's own.
  const runtimeText = await (await page.request.get(runtime)).text();
  expect(runtimeText).not.toContain('react.transitional.element');
});

test('on the foreign page, a donor picks their employer in the lookup and requests a match with it', async ({
  page,
  baseURL,
}) => {
  const { api, embed } = origins(baseURL);
  await openEmbedPage(page, embed);
  const lookup = page.locator('#company-lookup');
  const searched = page.waitForResponse((r) => r.url().startsWith(`${api}/api/public/companies?`));
  await lookup.getByRole('searchbox', { name: 'Employer' }).fill('Birch Tel');
  expect((await searched).headers()['access-control-allow-origin']).toBe('*');
  await lookup.getByRole('button', { name: /^Birch Telecom/ }).click();
  await expect(lookup.locator('[part="detail"]').getByText('3:1', { exact: true })).toBeVisible();

  const request = page.locator('#match-request');
  await expect(request.getByLabel('Employer (company)')).toHaveValue('Birch Telecom');
  await request.getByLabel('Amount (USD)').fill('120');
  await request.getByLabel('Donation date').fill('2025-06-20');
  await request.getByLabel('Full name').fill('Jordan Embed');
  await request.getByLabel('Email').fill(`jordan-${Date.now()}@example.org`);
  await request.getByRole('button', { name: 'Request My Match' }).click();
  await expect(request.getByRole('heading', { name: 'Thank you! Your match request is in.' })).toBeVisible();
  await expect(request.getByText('Donor to Submit in Company Portal')).toBeVisible();
  await expectNoAxeViolations(page);
});
