// `npm start`: build the portal and element bundles when they are missing or older than their
// sources, then run the server (API + portal + elements on one port, PGlite under ./data,
// migrated and seeded with demo data on first start).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');
const sources = ['src', 'elements', 'demo', 'dist-config', 'vite.config.ts', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

if (!existsSync(join(root, 'node_modules'))) {
  console.error('The npm packages are not installed. Run: npm install && npm start');
  process.exit(1);
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map((s) => newest(join(root, s))));
if (sourcesAt > builtAt) {
  console.log('Building the portal and the element bundles...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// React renders the donor emails on the server: its production build, unless told otherwise
// (the development build checks every element and was most of a large import's time).
const server = spawn(
  process.execPath,
  // The tracing preload does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md).
  [
    '--import',
    'tsx',
    '--import',
    join(root, 'server', 'observability', 'tracing.ts'),
    join(root, 'server', 'main.ts'),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    // npm start is the local demo: unless the user asked for production, the scheduler's clock may
    // be moved with `npm run clock` (the server still refuses it with DATABASE_URL or an exposed HOST).
    env: {
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'production',
      DEV_CLOCK: process.env.DEV_CLOCK ?? String(process.env.NODE_ENV !== 'production'),
    },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
