import { create } from 'content-disposition';

/**
 * The Content-Disposition of a download (RFC 6266): the name as given, quoted where it must be,
 * with an RFC 8187 `filename*` for names beyond ASCII and an ASCII `filename` fallback for old
 * clients, so "Reçu d'impôt.pdf" downloads under its own name. The `content-disposition` package
 * does the quoting and encoding; never build this header by hand.
 */
export function attachment(filename: string): string {
  return create(filename, { type: 'attachment' });
}

/**
 * A stored or typed name made safe as a file name: no path separators, control or format
 * characters, or characters Windows refuses in names; letters of every script are kept.
 */
export function fileNamePart(name: string, fallback: string, max = 100): string {
  return (
    name
      .normalize('NFC')
      .replace(/[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu, '_')
      .trim()
      .slice(0, max) || fallback
  );
}
