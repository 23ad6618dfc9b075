import { ApiError } from '../../api/client.ts';
import { fetchAndSolve } from '../contact/captcha.ts';

/** Not in the spec: what a code form says while the sign-in throttle's challenge runs. */
export const challengeTexts = {
  solving: 'Running a security check...',
  failed: 'The security check could not be completed. Please try again.',
} as const;

/**
 * Sends a code, solving the proof-of-work challenge the server asks for after a few wrong codes
 * (as the password form does): first without one unless the last refusal asked, then, when the
 * answer is 428 (the code was not even checked), once more with a fresh solution.
 */
export async function sendWithChallenge<T>(
  needed: boolean,
  send: (captcha: string | undefined) => Promise<T>,
  onSolving: (solving: boolean) => void,
): Promise<T> {
  const solve = async () => {
    onSolving(true);
    const token = await fetchAndSolve();
    onSolving(false);
    if (!token) throw new Error(challengeTexts.failed);
    return token;
  };
  const first = needed ? await solve() : undefined;
  try {
    return await send(first);
  } catch (error) {
    if (!(error instanceof ApiError && error.captcha && error.status === 428 && !first)) throw error;
  }
  return send(await solve());
}
