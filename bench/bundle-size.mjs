/**
 * The size budget of the public elements: each one's self-contained ES module (React, react-dom,
 * r2wc included; no signals), gzipped at level 9 with node:zlib, against 90 KB (92,160 bytes) and
 * against 90,000 bytes, so no reading of "KB" changes the verdict. Reads the built bundles:
 *
 *   npm run build && npm run bench:size            # the public elements
 *   npm run bench:size -- --all                    # every element in dist/elements, for reference
 *
 * Exits 1 when a public element is missing or over 90,000 bytes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { constants, gzipSync } from 'node:zlib';

/**
 * The elements a partner's page embeds with one script tag (README, 'Embedding'): those built
 * with the public element runtime, read from elements/ so the list cannot drift.
 */
const elementsDir = fileURLToPath(new URL('../elements/', import.meta.url));
const publicElements = readdirSync(elementsDir)
  .filter((file) => /^twofold-.*\.ts$/.test(file))
  .filter((file) => readFileSync(join(elementsDir, file), 'utf8').includes('define-public-element'))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

/** Issue #5: "at most 90 KB gzipped" — both readings of 90 KB. */
const budgets = [
  { label: '90 KB', bytes: 90 * 1024 },
  { label: '90,000 B', bytes: 90_000 },
];

const { values } = parseArgs({ options: { all: { type: 'boolean', default: false } } });
const dir = fileURLToPath(new URL('../dist/elements/', import.meta.url));

/** Gzipped size (level 9) of one built bundle, or null when it has not been built. */
function gzippedSize(name) {
  const file = join(dir, `${name}.js`);
  if (!existsSync(file)) return null;
  const code = readFileSync(file);
  return { raw: code.length, gzip: gzipSync(code, { level: constants.Z_BEST_COMPRESSION }).length };
}

const names = values.all
  ? [
      ...publicElements,
      ...readdirSync(dir)
        .filter((f) => f.endsWith('.js'))
        .map((f) => f.slice(0, -3))
        .filter((n) => !publicElements.includes(n))
        .sort(),
    ]
  : publicElements;

const number = (n) => n.toLocaleString('en-US');
const signed = (n) => (n >= 0 ? `${number(n)} under` : `${number(-n)} OVER`);
const rows = [];
let failed = false;
for (const name of names) {
  const size = gzippedSize(name);
  const isPublic = publicElements.includes(name);
  if (!size) {
    rows.push([name, 'not built', '', ...budgets.map(() => ''), isPublic ? 'MISSING' : '']);
    if (isPublic) failed = true;
    continue;
  }
  const strictest = Math.min(...budgets.map((b) => b.bytes));
  const within = size.gzip <= strictest;
  if (isPublic && !within) failed = true;
  rows.push([
    name,
    number(size.raw),
    number(size.gzip),
    ...budgets.map((b) => signed(b.bytes - size.gzip)),
    isPublic ? (within ? 'ok' : 'OVER') : '(not public)',
  ]);
}

const header = [
  'element',
  'bytes',
  'gzip -9',
  ...budgets.map((b) => `vs ${b.label} (${number(b.bytes)})`),
  '',
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
if (failed) {
  console.error('\nA public element is over 90,000 bytes gzipped, or was not built (npm run build).');
  process.exit(1);
}
