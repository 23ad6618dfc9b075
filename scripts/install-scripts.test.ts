import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

describe('npm install scripts', () => {
  // issue #30: swagger-ui-dist pulls in @scarf/scarf, whose postinstall (report.js) sends install
  // telemetry. package.json denies its scripts (npm's allowScripts) and opts out (scarfSettings).
  it("does not run @scarf/scarf's telemetry report on install", async () => {
    // --foreground-scripts prints each lifecycle script npm runs ("> node ./report.js").
    const { stdout, stderr } = await run('npm', ['rebuild', '@scarf/scarf', '--foreground-scripts'], {
      cwd: root,
      timeout: 60_000,
    });
    const output = `${stdout}\n${stderr}`;
    expect(output).toContain('rebuilt dependencies successfully');
    expect(output).not.toContain('report.js');
  }, 90_000);
});
