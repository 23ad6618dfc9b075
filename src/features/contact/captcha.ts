import { solveChallenge } from 'altcha-lib/v1';
import { captchaChallenge } from '../../api/public.ts';
import type { CaptchaChallenge, CaptchaPayload } from '../../contract/index.ts';

/**
 * The contact form's "invisible captcha" (spec, part 1, section 2): a self-hosted ALTCHA
 * proof-of-work. The server issues a signed challenge; the browser finds the number whose hash
 * it is and sends the solution, base64-encoded JSON, as `recaptchaToken`. No third-party script.
 */

/** The `recaptchaToken` for a solved challenge. */
export function encodeSolution(challenge: CaptchaChallenge, number: number): string {
  const payload: CaptchaPayload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  return btoa(JSON.stringify(payload));
}

/**
 * Solve a challenge by brute force (each hash is awaited, so the page stays responsive).
 * Resolves null when no number up to maxnumber fits or when `signal` aborts.
 */
export async function solve(challenge: CaptchaChallenge, signal?: AbortSignal): Promise<string | null> {
  const { promise, controller } = solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber ?? 1_000_000,
  );
  const abort = () => controller.abort();
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const solution = await promise;
    return solution && !signal?.aborted ? encodeSolution(challenge, solution.number) : null;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

/** Fetch a challenge and solve it: the token to send, or null when either step failed. */
export async function fetchAndSolve(signal?: AbortSignal): Promise<string | null> {
  try {
    const challenge = await captchaChallenge();
    if (signal?.aborted) return null;
    return await solve(challenge, signal);
  } catch {
    return null;
  }
}
