#!/usr/bin/env bash
# The whole suite, as CI runs it: type-check, lint, unit and server tests (PGlite, and
# PostgreSQL where one answers), the element bundles in Chromium, and end-to-end journeys
# through the built portal against the real server.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# Every runner's output also goes to a log, so the last line can add up what all of them ran.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() { "$@" 2>&1 | tee -a "$log"; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "Installing npm packages"
  # Not `npm ci`: see .ci/run for why.
  npm install --no-audit --no-fund
fi

step "Chromium for the browser tests"
bash scripts/ensure-chromium.sh

# First: the browser tests import the built element bundles (what ships), so type-checking needs them.
step "Build the portal and the element bundles"
npm run build

step "Type-check"
npx tsc -p .

step "Lint (Biome, zero warnings)"
npx biome check --error-on-warnings .

step "Unit and server tests on PGlite"
TEST_DB=pglite run npx vitest run

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
if node scripts/pg-available.mjs; then
  step "Server tests on PostgreSQL (${DATABASE_URL%%@*}@…)"
  TEST_DB=postgres run npx vitest run --project 'server*'
else
  step "PostgreSQL did not answer at DATABASE_URL: the server suites ran on PGlite only"
fi
unset DATABASE_URL

step "Element bundles in Chromium (@web/test-runner)"
run npx web-test-runner

step "End-to-end journeys (Playwright, Debian chromium, real server)"
run npx playwright test

# The deployment across hosts (docs/deploy.md): network namespaces need root. Where they can be
# made it runs (about two minutes); RUN_CLUSTER=0 skips it.
if [ "${RUN_CLUSTER:-1}" != 0 ] && [ "$(id -u)" = 0 ] && ip netns list > /dev/null 2>&1; then
  step "Cluster across hosts (npm run test:cluster: nginx, two app hosts, SIGKILL, rolling restart)"
  run npm run test:cluster
elif [ "${RUN_CLUSTER:-1}" = 0 ]; then
  step "Cluster test skipped (RUN_CLUSTER=0)"
else
  step "Cluster test not run: it needs root and network namespaces (sudo npm run test:cluster)"
fi

step "All test stages passed"
# vitest: "Tests  115 passed (115)"; web-test-runner: "28 passed, 0 failed"; Playwright: "10 passed (40s)".
node scripts/count-tests.mjs "$log"
