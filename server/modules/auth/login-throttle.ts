import { and, eq, lt, or, sql } from 'drizzle-orm';
import { type LoginRefusal, loginCaptchaMessages } from '../../../src/contract/auth.ts';
import { loginFailures } from '../../db/schema.ts';
import type { Deps } from '../../http/route.ts';
import { spendSolution } from '../captcha/captcha.service.ts';

/**
 * Sign-in throttling that costs the guesser, not the owner. Failed sign-ins are counted per email
 * and client address together, in the database (every server process sees the same counts).
 * Once an email has failed `loginCaptchaAfter` times within the window, or an address
 * `perIp` times, every sign-in to that email or from that address must carry a solved, unspent
 * proof-of-work challenge (the ALTCHA of the contact form). Nothing is ever refused outright: the
 * owner's right password with a solved challenge always signs in; each further guess costs the
 * guesser a fresh proof of work, and an attempt without one costs the server no password hash.
 */

export type LoginAttempt = { email: string; ip: string; captcha: string | undefined };

export type Admission =
  | {
      admitted: true /** Whether a failure of this attempt makes the next one need a challenge. */;
      captchaNext: boolean;
    }
  | { admitted: false; refusal: LoginRefusal };

const lockSpace = 'login';

/**
 * Before the password is checked: refuses an attempt that needs a challenge and lacks a good one,
 * or books it as a failure (cleared by `recordSuccess`), so parallel guesses cannot all slip in
 * under the threshold. Attempts for one email are serialized while they are counted.
 */
export async function admitAttempt(deps: Deps, attempt: LoginAttempt): Promise<Admission> {
  const { windowMs, perIp } = deps.config.rateLimit;
  const { loginCaptchaAfter } = deps.config;
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${lockSpace} ${attempt.email}`}))`);
    const since = sql`now() - (${windowMs}::int * interval '1 millisecond')`;
    await tx.delete(loginFailures).where(lt(loginFailures.last_failed_at, since));
    const [counts] = await tx
      .select({
        email: sql<number>`coalesce(sum(${loginFailures.failures}) filter (where ${loginFailures.email} = ${attempt.email}), 0)::int`,
        ip: sql<number>`coalesce(sum(${loginFailures.failures}) filter (where ${loginFailures.ip} = ${attempt.ip}), 0)::int`,
      })
      .from(loginFailures)
      .where(or(eq(loginFailures.email, attempt.email), eq(loginFailures.ip, attempt.ip)));
    const byEmail = counts?.email ?? 0;
    const byIp = counts?.ip ?? 0;
    if (byEmail >= loginCaptchaAfter || byIp >= perIp) {
      if (!attempt.captcha)
        return { admitted: false, refusal: { message: loginCaptchaMessages.required, captcha: true } };
      if (!(await spendSolution(tx, deps.config.jwtSecret, attempt.captcha)))
        return { admitted: false, refusal: { message: loginCaptchaMessages.failed, captcha: true } };
    }
    await tx
      .insert(loginFailures)
      .values({ email: attempt.email, ip: attempt.ip, failures: 1 })
      .onConflictDoUpdate({
        target: [loginFailures.email, loginFailures.ip],
        set: { failures: sql`${loginFailures.failures} + 1`, last_failed_at: sql`now()` },
      });
    return { admitted: true, captchaNext: byEmail + 1 >= loginCaptchaAfter || byIp + 1 >= perIp };
  });
}

/** The right password from this address: its failures for the email are forgotten. */
export async function recordSuccess(deps: Deps, attempt: LoginAttempt): Promise<void> {
  await deps.db
    .delete(loginFailures)
    .where(and(eq(loginFailures.email, attempt.email), eq(loginFailures.ip, attempt.ip)));
}
