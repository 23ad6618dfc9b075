// Adds up the tests every runner reported in the log scripts/test.sh kept, and prints one
// "N passed, N failed" line for the whole suite.
import { readFileSync } from 'node:fs';

const text = readFileSync(process.argv[2] ?? '/dev/stdin', 'utf8')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips terminal colour codes.
  .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
  .replace(/\r/g, '\n');
const lines = text.split('\n');
let passed = 0;
let failed = 0;
let flaky = 0;
for (const line of lines) {
  // vitest summary line.
  const vitest = line.match(/^\s*Tests\s+(?:(\d+) failed \| )?(\d+) passed/);
  if (vitest) {
    failed += Number(vitest[1] ?? 0);
    passed += Number(vitest[2]);
  }
  // Playwright summary lines ("  10 passed (40.9s)", "  1 failed").
  const pwPassed = line.match(/^\s+(\d+) passed \(\d/);
  if (pwPassed) passed += Number(pwPassed[1]);
  const pwFailed = line.match(/^\s+(\d+) failed$/);
  if (pwFailed) failed += Number(pwFailed[1]);
  // Playwright: passed only on its retry ("  1 flaky").
  const pwFlaky = line.match(/^\s+(\d+) flaky$/);
  if (pwFlaky) {
    flaky += Number(pwFlaky[1]);
    passed += Number(pwFlaky[1]);
  }
  // npm run test:cluster ("test:cluster: 16 checks passed, 0 failed in 270 s").
  const cluster = line.match(/^test:cluster: (\d+) checks passed, (\d+) failed/);
  if (cluster) {
    passed += Number(cluster[1]);
    failed += Number(cluster[2]);
  }
}
// web-test-runner redraws a progress line; its last one holds the totals.
const wtr = lines.filter((l) => /test files \| \d+ passed, \d+ failed/.test(l)).at(-1);
const wtrCounts = wtr?.match(/(\d+) passed, (\d+) failed/);
if (wtrCounts) {
  passed += Number(wtrCounts[1]);
  failed += Number(wtrCounts[2]);
}
console.log(`total: ${passed} passed, ${failed} failed${flaky ? ` (${flaky} passed only on a retry)` : ''}`);
