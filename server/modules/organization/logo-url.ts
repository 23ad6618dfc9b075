/**
 * The public address of a stored logo (organizations keep the path, e.g. /files/abc.png). On its
 * own so the donor emails can use it without importing the donor's match service, which imports
 * the donations service that sends those emails (a circle: server/import-cycles.test.ts).
 */
export function logoUrl(publicUrl: string, fileLogo: string | null): string | null {
  return fileLogo ? `${publicUrl.replace(/\/+$/, '')}${fileLogo}` : null;
}
