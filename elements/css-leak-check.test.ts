import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain Node script without type declarations.
import { checkShippedCss, cssProblems } from '../dist-config/check-css.mjs';

const check = cssProblems as (css: string) => string[];

describe('the CSS leak check the build runs', () => {
  it('flags selectors on :root, html and body, and @property rules', () => {
    expect(check(':root { --x: 1; }')).toHaveLength(1);
    expect(check('html, .a { color: red; }')).toHaveLength(1);
    expect(check('.a > body .b { color: red; }')).toHaveLength(1);
    expect(check('@media (min-width: 1px) { body { margin: 0; } }')).toHaveLength(1);
    expect(
      check('@property --angle { syntax: "<angle>"; inherits: false; initial-value: 0deg; }'),
    ).toHaveLength(1);
  });

  it('accepts scoped CSS, class names that merely contain the words, and keyframes', () => {
    expect(
      check(`:host { --twofold-color-primary: #000; }
        .body, .html-preview, .card__body { color: red; }
        /* body { } in a comment */
        @keyframes spin { from { opacity: 0; } 50% { opacity: 0.5; } to { opacity: 1; } }`),
    ).toEqual([]);
  });

  it('passes on the CSS the elements ship today', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const result = (checkShippedCss as (root: string) => { files: number; failures: string[] })(root);
    expect(result.failures).toEqual([]);
    expect(result.files).toBeGreaterThan(3);
  });
});
