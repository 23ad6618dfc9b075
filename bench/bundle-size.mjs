/**
 * The size budgets of what a browser downloads (issue #17, 'Pages'), read from the built files and
 * gzipped at level 9 with node:zlib:
 *
 * - each public element standalone: its own module plus every chunk it imports (the shared
 *   twofold-public-runtime.js), what a page embedding that one element downloads: ≤ 40 KB;
 * - the shared runtime alone, and what a page with two public elements downloads (the runtime
 *   once);
 * - the portal's first load: the JavaScript and CSS dist/portal/index.html loads before any
 *   screen's code (its scripts, module preloads and stylesheets, and their static imports):
 *   ≤ 120 KB.
 *
 * Each limit is checked in both readings of "KB" (40 × 1024 and 40,000 bytes), so no reading
 * changes the verdict.
 *
 *   npm run build && npm run bench:size            # the budgets
 *   npm run bench:size -- --all                    # also every other file in dist/elements
 *
 * Exits 1 when something is missing or over its limit.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { constants, gzipSync } from 'node:zlib';
import { publicElementNames, publicRuntimeName } from '../dist-config/elements.mjs';

const { values } = parseArgs({ options: { all: { type: 'boolean', default: false } } });
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const elementsDir = join(dist, 'elements');
const portalDir = join(dist, 'portal');

const kb = (n) => ({ label: `${n} KB`, bytes: n * 1024 });
const kbDecimal = (n) => ({ label: `${n},000 B`, bytes: n * 1000 });
const elementLimits = [kb(40), kbDecimal(40)];
const portalLimits = [kb(120), kbDecimal(120)];

const gzipCache = new Map();
/** Raw and gzipped (level 9) size of one built file. */
function sizeOf(file) {
  let size = gzipCache.get(file);
  if (!size) {
    const code = readFileSync(file);
    size = { raw: code.length, gzip: gzipSync(code, { level: constants.Z_BEST_COMPRESSION }).length };
    gzipCache.set(file, size);
  }
  return size;
}

/**
 * The files a module imports statically (import ... from, export ... from, bare import), by
 * relative URL; dynamic import() is code loaded later, not part of this load.
 */
function staticImports(file) {
  const code = readFileSync(file, 'utf8');
  const found = [];
  const pattern = /(?:^|[;}\s])(?:import|export)\s*(?:[^"'();]*?\bfrom\s*)?["']([^"']+)["']/g;
  for (const match of code.matchAll(pattern)) {
    const specifier = match[1];
    if (specifier.startsWith('.') || specifier.startsWith('/')) found.push(specifier);
  }
  return found;
}

/** `files` and everything they import statically, each once. */
function closure(files, resolve) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    if (!existsSync(file)) throw new Error(`${relative(dist, file)} is imported but was not built`);
    seen.add(file);
    if (file.endsWith('.js')) for (const specifier of staticImports(file)) visit(resolve(file, specifier));
  };
  for (const file of files) visit(file);
  return [...seen];
}

const relativeTo = (file, specifier) => join(dirname(file), specifier);
const total = (files) =>
  files.reduce(
    (sum, file) => {
      const size = sizeOf(file);
      return { raw: sum.raw + size.raw, gzip: sum.gzip + size.gzip };
    },
    { raw: 0, gzip: 0 },
  );

/** The portal's first load: what index.html loads, and the modules those import statically. */
function portalFirstLoad() {
  const index = join(portalDir, 'index.html');
  if (!existsSync(index)) return null;
  const html = readFileSync(index, 'utf8');
  const urls = [
    ...[...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/<link\b[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*\bhref="([^"]+)"/g)].map(
      (m) => m[1],
    ),
  ];
  // The server maps /assets/x to dist/portal/assets/x.
  const fromUrl = (url) => join(portalDir, url.replace(/^\//, ''));
  return closure(urls.map(fromUrl), (file, specifier) =>
    specifier.startsWith('/') ? fromUrl(specifier) : relativeTo(file, specifier),
  );
}

const number = (n) => n.toLocaleString('en-US');
const signed = (n) => (n >= 0 ? `${number(n)} under` : `${number(-n)} OVER`);
const rows = [];
let failed = false;

/** One measured line; `limits` null for a figure shown for reference. */
function row(name, size, limits, note = '') {
  if (!size) {
    rows.push([name, 'not built', '', '', 'MISSING']);
    failed = true;
    return;
  }
  if (!limits) {
    rows.push([name, number(size.raw), number(size.gzip), '', note]);
    return;
  }
  const strictest = Math.min(...limits.map((l) => l.bytes));
  const within = size.gzip <= strictest;
  if (!within) failed = true;
  rows.push([
    name,
    number(size.raw),
    number(size.gzip),
    limits.map((l) => `vs ${l.label}: ${signed(l.bytes - size.gzip)}`).join(', '),
    within ? 'ok' : 'OVER',
  ]);
}

function section(title) {
  rows.push([title, '', '', '', '']);
}

const runtimeFile = join(elementsDir, `${publicRuntimeName}.js`);
const elementFile = (name) => join(elementsDir, `${name}.js`);

section('Public elements, standalone (the module + the chunks it imports)');
for (const name of publicElementNames) {
  if (!existsSync(elementFile(name))) {
    row(`  ${name}`, null, elementLimits);
    continue;
  }
  const files = closure([elementFile(name)], relativeTo);
  row(`  ${name}`, total(files), elementLimits);
}

section('Shared by the public elements');
row(
  `  ${publicRuntimeName}.js`,
  existsSync(runtimeFile) ? sizeOf(runtimeFile) : null,
  null,
  'loaded once a page',
);
for (const name of publicElementNames) {
  if (existsSync(elementFile(name))) row(`  ${name}.js alone`, sizeOf(elementFile(name)), null);
}
// Issue #17's example: a donation page that embeds the match request and the FAQ.
const pair = ['twofold-match-request', 'twofold-faq'].every((n) => publicElementNames.includes(n))
  ? ['twofold-match-request', 'twofold-faq']
  : publicElementNames.slice(0, 2);
if (pair.length === 2 && pair.every((name) => existsSync(elementFile(name)))) {
  const together = total(closure(pair.map(elementFile), relativeTo));
  const apart = pair.reduce((sum, name) => sum + total(closure([elementFile(name)], relativeTo)).gzip, 0);
  row(
    `  a page with ${pair.join(' and ')}`,
    together,
    null,
    `the runtime once (${number(apart)} if each brought its own)`,
  );
}

section('Portal (dist/portal)');
const portal = portalFirstLoad();
row('  first load, JavaScript + CSS', portal ? total(portal) : null, portalLimits);
if (portal) {
  for (const file of portal) row(`    ${relative(portalDir, file)}`, sizeOf(file), null);
  const lazy = readdirSync(join(portalDir, 'assets'))
    .map((f) => join(portalDir, 'assets', f))
    .filter((f) => !portal.includes(f));
  row(`  loaded later, by route (${lazy.length} files)`, total(lazy), null);
}

if (values.all) {
  section('Every other file in dist/elements (the staff elements are self-contained React)');
  const listed = new Set([...publicElementNames.map((n) => `${n}.js`), `${publicRuntimeName}.js`]);
  for (const file of readdirSync(elementsDir).sort()) {
    if (file.endsWith('.js') && !listed.has(file)) row(`  ${file}`, sizeOf(join(elementsDir, file)), null);
  }
}

const header = ['', 'bytes', 'gzip -9', 'limit', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) =>
  cells
    .map((c, i) => (i === 0 || i >= 3 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
    .join('  ')
    .trimEnd();
console.log(line(header));
for (const r of rows) console.log(line(r));
if (failed) {
  console.error('\nOver a limit, or not built (npm run build).');
  process.exit(1);
}
