// Fails the build when shipped CSS could leak out of (or fail inside) a shadow root:
// a selector on :root, html or body, or an @property rule (not allowed in shadow trees).
// (Pattern from Formbricks' packages/survey-ui/scripts/assert-scoped-css.mjs.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const leakingSelector = /(^|[\s>+~,(])(:root|html|body)(?![\w-])/i;

/** The problems in one stylesheet's text: one line per offending rule. */
export function cssProblems(css) {
  const problems = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  // Every prelude: the text before a `{`, after the previous `{`, `}` or `;`.
  for (const match of text.matchAll(/([^{};]*)\{/g)) {
    const prelude = match[1].trim();
    if (!prelude) continue;
    if (prelude.startsWith('@')) {
      if (/^@property\b/i.test(prelude)) problems.push(`@property rule: ${prelude}`);
      continue;
    }
    // Keyframe steps are not selectors.
    if (/^(from|to|\d+(\.\d+)?%)(\s*,\s*(from|to|\d+(\.\d+)?%))*$/i.test(prelude)) continue;
    for (const selector of prelude.split(',')) {
      if (leakingSelector.test(selector.trim()))
        problems.push(`selector reaches outside the element: ${selector.trim()}`);
    }
  }
  return problems;
}

function cssFiles(dir) {
  let found = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return found;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found = found.concat(cssFiles(path));
    else if (entry.endsWith('.css')) found.push(path);
  }
  return found;
}

/** Check the CSS the elements ship (inlined from src/) and any CSS file in dist/elements. */
export function checkShippedCss(root) {
  const files = [...cssFiles(join(root, 'src')), ...cssFiles(join(root, 'dist', 'elements'))];
  const failures = [];
  for (const file of files) {
    for (const problem of cssProblems(readFileSync(file, 'utf8')))
      failures.push(`${relative(root, file)}: ${problem}`);
  }
  return { files: files.length, failures };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { files, failures } = checkShippedCss(root);
  if (failures.length) {
    console.error(`CSS leak check failed:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`CSS leak check: ${files} stylesheets, no selector on :root/html/body, no @property.`);
}
