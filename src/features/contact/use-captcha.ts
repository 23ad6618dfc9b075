import { useCallback, useEffect, useRef } from 'react';
import { fetchAndSolve } from './captcha.ts';

/**
 * The invisible proof-of-work captcha of the public forms (contact, matching page; see
 * captcha.ts): a challenge solved in the background as soon as the form shows, and
 * again after each send (a solution works once). `token()` waits for the solving in progress, or
 * starts again when the last attempt failed; it resolves null if that fails too.
 */
export function useCaptcha() {
  const pending = useRef<Promise<string | null> | null>(null);
  const controller = useRef<AbortController | null>(null);

  const renew = useCallback(() => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    const attempt = fetchAndSolve(abort.signal);
    pending.current = attempt;
    // A failed attempt is forgotten, so the next token() tries again.
    void attempt.then((token) => {
      if (token === null && pending.current === attempt) pending.current = null;
    });
  }, []);

  useEffect(() => {
    renew();
    return () => controller.current?.abort();
  }, [renew]);

  const token = useCallback(async (): Promise<string | null> => {
    if (!pending.current) renew();
    return pending.current;
  }, [renew]);

  return { token, renew };
}
