import { useEffect, useRef } from 'react';

/**
 * Calls `save` once the value has stopped changing for `delayMs` (spec section 9: "API key name
 * save delay: 500 ms. Webhook update delay: 1500 ms."). A pending save is sent when the component
 * goes away, so closing a dialog right after typing loses nothing.
 */
export function useDebouncedSave<T>(value: T, delayMs: number, save: (value: T) => void, changed: boolean) {
  const saveRef = useRef(save);
  saveRef.current = save;
  const pending = useRef<{ value: T } | null>(null);
  useEffect(() => {
    if (!changed) return;
    pending.current = { value };
    const timer = setTimeout(() => {
      pending.current = null;
      saveRef.current(value);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs, changed]);
  useEffect(
    () => () => {
      if (pending.current) saveRef.current(pending.current.value);
    },
    [],
  );
}

/** Copies text; false when the browser refuses (no permission, insecure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
