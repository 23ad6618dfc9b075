/**
 * Paths that carry a secret: the rule is the parameter's name. A route (or static page) whose path
 * names a parameter with `token` in it (`/api/esign/:token`, `/sign/:token`) holds a one-time
 * secret there, and anything that writes paths down (the request log, error lines) goes through
 * `redactPath`. New token routes are covered by being named so; nothing else needs listing.
 */

/** Static pages whose path carries a token (the API's come from the route table). */
export const tokenPages = ['/sign/:token'] as const;

const isTokenParam = (segment: string) => /^:[A-Za-z_]*token/i.test(segment);

/**
 * A function that replaces every token segment of a path by its parameter's name. It matches by
 * prefix, so a token is hidden even on a path no route answers (`/api/esign/{token}/typo`).
 */
export function tokenPathRedactor(patterns: readonly string[]): (path: string) => string {
  // Each pattern's segments up to and including its last token parameter.
  const rules = new Map<string, { segments: string[] }>();
  for (const pattern of patterns) {
    const segments = pattern.split('/');
    const last = segments.findLastIndex(isTokenParam);
    if (last < 0) continue;
    const prefix = segments.slice(0, last + 1);
    rules.set(prefix.join('/'), { segments: prefix });
  }
  const compiled = [...rules.values()];
  if (compiled.length === 0) return (path) => path;
  return (path) => {
    const parts = path.split('/');
    for (const { segments } of compiled) {
      if (parts.length < segments.length) continue;
      const matches = segments.every((s, i) => s.startsWith(':') || s === parts[i]);
      if (!matches) continue;
      segments.forEach((s, i) => {
        if (isTokenParam(s)) parts[i] = s.replace(/\{.*$/, '');
      });
    }
    return parts.join('/');
  };
}
