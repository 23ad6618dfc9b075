/**
 * Helpers for the public forms' Chromium tests, next to elements/browser-test-support.ts: a fetch
 * mock that also records headers and the query, and setters for <select>, <textarea> and inputs
 * found by a label that holds more than the control.
 */
import { deepElements } from '../../../elements/browser-test-support.ts';

export interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: unknown;
}

/** Replace window.fetch with `handler`; returns the calls it saw, with headers and query. */
export function mockApi(handler: (call: Call) => Response | Promise<Response>): Call[] {
  const calls: Call[] = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const text = await req.text();
    const call: Call = {
      method: req.method,
      path: url.pathname,
      search: url.searchParams,
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
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
