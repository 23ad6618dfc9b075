/**
 * Helpers for the Chromium tests of the built elements (@web/test-runner, mocha). Waiting is
 * always for a DOM condition, checked every 10 ms, never a fixed sleep.
 */

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function assertEqual<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected)
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Resolves with the first truthy value of `check`, or fails after `timeout` ms naming `what`. */
export function waitFor<T>(
  check: () => T | null | undefined | false,
  what: string,
  timeout = 5000,
): Promise<T> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      let value: T | null | undefined | false;
      try {
        value = check();
      } catch {
        value = undefined;
      }
      if (value) return resolve(value);
      if (performance.now() - started > timeout) return reject(new Error(`Timed out waiting for ${what}`));
      // A short timer rather than requestAnimationFrame: frames pause while a page is hidden.
      setTimeout(tick, 10);
    };
    tick();
  });
}

/** All elements under `root`, looking inside open shadow roots. */
export function deepElements(root: ParentNode): Element[] {
  const found: Element[] = [];
  for (const el of root.querySelectorAll('*')) {
    found.push(el);
    if (el.shadowRoot) found.push(...deepElements(el.shadowRoot));
  }
  return found;
}

/** The innermost element whose text is exactly `text` (trimmed), looking inside shadow roots. */
export function byText(root: ParentNode, text: string): HTMLElement | undefined {
  return deepElements(root)
    .filter((el): el is HTMLElement => el instanceof HTMLElement && el.textContent?.trim() === text)
    .at(-1);
}

/**
 * Why `el` is not visibly on screen (empty when it is): laid out bigger than a pixel, not
 * visually hidden (clip, clip-path), not transparent or hidden, and its text not cut (an
 * ellipsis or a box narrower than its text). A screen-reader-only text fails this.
 */
export function notVisibleBecause(el: HTMLElement): string {
  const rect = el.getBoundingClientRect();
  if (rect.width <= 1 || rect.height <= 1) return `it is ${rect.width}×${rect.height} px`;
  for (
    let node: Element | null = el;
    node;
    node = node.parentElement ?? (node.getRootNode() as ShadowRoot).host ?? null
  ) {
    const style = getComputedStyle(node);
    if (style.visibility !== 'visible') return `visibility ${style.visibility}`;
    if (style.opacity === '0') return 'opacity 0';
    if (style.clip !== 'auto' && style.clip !== '') return `clipped (${style.clip})`;
    if (style.clipPath !== 'none') return `clipped (${style.clipPath})`;
    if (node === document.documentElement) break;
  }
  if (el.scrollWidth > el.clientWidth + 1)
    return `its text is cut (${el.scrollWidth} > ${el.clientWidth} px)`;
  return '';
}

/** The element that has focus, looking inside shadow roots. */
export function deepActiveElement(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** The open modal <dialog> named `title` (its aria-labelledby heading), inside `root`. */
export function openDialog(root: ParentNode, title: string): HTMLDialogElement | undefined {
  return deepElements(root).find(
    (el): el is HTMLDialogElement =>
      el instanceof HTMLDialogElement &&
      el.open &&
      el.matches(':modal') &&
      (el.getRootNode() as Document | ShadowRoot)
        .getElementById(el.getAttribute('aria-labelledby') ?? '')
        ?.textContent?.trim() === title,
  );
}

/**
 * Makes the browser's own confirm() fail the test if anything calls it (the portal asks with its
 * own dialog); returns how to put it back.
 */
export function forbidNativeConfirm(): () => void {
  const original = window.confirm;
  window.confirm = (message?: string) => {
    throw new Error(`window.confirm was called: ${message}`);
  };
  return () => {
    window.confirm = original;
  };
}

/** A button by its visible text or aria-label. */
export function button(root: ParentNode, name: string): HTMLButtonElement | undefined {
  return deepElements(root).find(
    (el): el is HTMLButtonElement =>
      el instanceof HTMLButtonElement &&
      (el.textContent?.trim() === name || el.getAttribute('aria-label') === name),
  );
}

/** An input by the text of its <label>. */
export function input(root: ParentNode, label: string): HTMLInputElement | undefined {
  const labelEl = deepElements(root).find(
    (el): el is HTMLLabelElement => el instanceof HTMLLabelElement && el.textContent?.trim() === label,
  );
  const control = labelEl?.control;
  return control instanceof HTMLInputElement ? control : undefined;
}

/** Type into a React-controlled input the way a user's keyboard would (native setter + input event). */
export function fill(field: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

/** Mount a fresh element and wait until its island has rendered. */
export async function mount<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
): Promise<HTMLElementTagNameMap[K]> {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  document.body.append(el);
  await waitFor(() => el.shadowRoot?.querySelector('.twofold-root')?.childElementCount, `<${tag}> to render`);
  return el;
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export interface Call {
  method: string;
  url: URL;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  /** JSON bodies parsed; multipart bodies as FormData. */
  body: unknown;
}

/** Replace window.fetch with `handler`; returns the calls it saw, with headers and query. */
export function mockApi(handler: (call: Call) => Response | Promise<Response>): Call[] {
  const calls: Call[] = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    let body: unknown;
    if ((req.headers.get('content-type') ?? '').startsWith('multipart/form-data'))
      body = await req.formData();
    else {
      const text = await req.text();
      body = text ? JSON.parse(text) : undefined;
    }
    const call: Call = {
      method: req.method,
      url,
      path: url.pathname,
      search: url.searchParams,
      headers: req.headers,
      body,
    };
    calls.push(call);
    return handler(call);
  };
  return calls;
}

/** The form control labelled `label` (exact text of its <label>), whatever its kind. */
export function control<T extends HTMLElement = HTMLInputElement>(root: ParentNode, label: string): T {
  const labelEl = deepElements(root).find(
    (el): el is HTMLLabelElement => el instanceof HTMLLabelElement && el.textContent?.trim() === label,
  );
  const found = labelEl?.control;
  if (!found) throw new Error(`No control labelled ${label}`);
  return found as unknown as T;
}

/** Set a React-controlled input, textarea or select the way a user would (native setter + event). */
export function setValue(
  field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  value: string,
): void {
  const proto = Object.getPrototypeOf(field) as object;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
  const type = field instanceof HTMLSelectElement ? 'change' : 'input';
  field.dispatchEvent(new Event(type, { bubbles: true, composed: true }));
}

/** All the texts of the form's error messages, in page order. */
export function errorTexts(root: ParentNode): string[] {
  return [...root.querySelectorAll('.field__error')].map((el) => el.textContent?.trim() ?? '');
}

interface AxeResult {
  violations: { id: string; help: string; nodes: { target: unknown[] }[] }[];
}

/** Load axe-core once and run it on `el` (axe walks open shadow roots); returns readable violations. */
export async function axeViolations(el: Element): Promise<string[]> {
  const win = window as unknown as {
    axe?: { run: (context: Element, options: object) => Promise<AxeResult> };
  };
  if (!win.axe) {
    await new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = '/node_modules/axe-core/axe.min.js';
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('axe-core did not load'));
      document.head.append(script);
    });
  }
  const axe = win.axe;
  assert(axe, 'axe-core is loaded');
  // Page-level rules (landmarks, a page title) belong to the host page, not to one element.
  const result = await axe.run(el, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
  });
  return result.violations.map(
    (v) => `${v.id} (${v.help}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
  );
}

/** Mocha's globals, as @web/test-runner provides them (no @types/mocha in this project). */
declare global {
  function describe(name: string, body: () => void): void;
  function it(name: string, body: () => void | Promise<void>): void;
  function beforeEach(body: () => void | Promise<void>): void;
  function afterEach(body: () => void | Promise<void>): void;
}
