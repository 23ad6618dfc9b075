import { signal } from '@preact/signals-react';

/** spec (part 1, section 9): "Only one toast is visible at a time." "The default toast duration is 5000 ms." */
export const toastLimit = 1;
export const defaultToastDuration = 5000;
/** spec (part 1, section 9): "the swipe threshold is 50" (pixels a toast is dragged sideways to dismiss it). */
export const swipeThreshold = 50;

import { announceToast, type ToastInput, type ToastVariant, toastChannel } from './toast-channel.ts';

export type { ToastInput, ToastVariant } from './toast-channel.ts';

export interface Toast {
  id: number;
  title?: string;
  description?: string;
  variant: ToastVariant;
  duration: number;
}

/** The visible toasts, newest first (never more than `toastLimit`). */
export const toasts = signal<readonly Toast[]>([]);

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

/**
 * Elements published as separate bundles each carry their own copy of this module. Toasts travel
 * as a `twofold-toast` event on window, so whichever copy the page's <twofold-toaster> belongs to
 * shows them. Every copy listens; dispatch is synchronous, so the caller's copy has shown it on return.
 */
const hasWindow = typeof window !== 'undefined' && typeof window.addEventListener === 'function';
let lastShown = 0;
if (hasWindow) {
  window.addEventListener(toastChannel, (event) => {
    const detail = (event as CustomEvent<ToastInput>).detail;
    if (detail && typeof detail === 'object') lastShown = show(detail);
  });
}

/** Show a toast; it replaces the one showing. Returns its id. */
export function toast(input: ToastInput): number {
  if (!hasWindow) return show(input);
  announceToast(input);
  return lastShown;
}

function show(input: ToastInput): number {
  const id = nextId++;
  const entry: Toast = {
    id,
    title: input.title,
    description: input.description,
    variant: input.variant ?? 'default',
    duration: input.duration ?? defaultToastDuration,
  };
  const kept = [entry, ...toasts.value].slice(0, toastLimit);
  for (const old of toasts.value) if (!kept.includes(old)) clearTimer(old.id);
  toasts.value = kept;
  if (Number.isFinite(entry.duration)) {
    timers.set(
      id,
      setTimeout(() => dismissToast(id), entry.duration),
    );
  }
  return id;
}

/** Remove one toast (its close button), or all of them without an id. */
export function dismissToast(id?: number): void {
  if (id === undefined) {
    for (const t of toasts.value) clearTimer(t.id);
    toasts.value = [];
    return;
  }
  clearTimer(id);
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

function clearTimer(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}
