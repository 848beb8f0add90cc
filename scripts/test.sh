#!/usr/bin/env bash
# `npm test`: the whole suite — unit, integration (real PostgreSQL, S3 server, OpenSSH SFTP, SMTP sink),
# and browser journeys (Debian's Chromium, JavaScript on and off) on PostgreSQL and on a zero-config
# `npm start`, with the outside checkers (axe-core; the Nu HTML Checker on Debian's Java) over every
# page a user meets (ADR 048). Installs what a fresh Debian machine lacks when it can; never skips
# silently. Runs on whichever `node` is first on PATH (CI puts Node 24 first, ADR 049).
#
# The runners go at the same time (ADR 059), each with its own databases, ports, folders and report:
# vitest clones a database per test file and takes free ports; the PostgreSQL target runs as two
# runs, JavaScript on (port 3210 or E2E_PORT, database aligner_e2e or E2E_DATABASE, tests/.tmp/e2e-js-*)
# and off (port 3230 or E2E_NOJS_PORT, that database's name + _nojs, tests/.tmp/e2e-nojs-*), each a
# server of its own; the embedded target (port 3220 or E2E_EMBEDDED_PORT, PGlite in
# tests/.tmp/embedded-*). Each runner's output is printed whole when it ends.
set -uo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

fail() { echo "npm test: $*" >&2; exit 1; }

# Chromium, OpenSSH, PgBouncer and Java (the Nu HTML Checker) from apt when missing.
source scripts/machine-packages.sh
machine_packages || fail "a Debian package the tests need is missing"
[ -d node_modules ] || npm ci || fail "npm ci failed"
# OpenSSH refuses even key logins to a locked account ("!" in /etc/shadow); the SFTP tests log in as this user.
if [ "$(id -u)" = "0" ] && grep -q '^root:!' /etc/shadow 2>/dev/null; then usermod -p '*' root; fi

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}}"
node -e "
  const pg = require('pg');
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, connectionTimeoutMillis: 5000 });
  c.connect().then(() => c.end()).catch((e) => { console.error('PostgreSQL is not reachable at ' + process.env.TEST_DATABASE_URL + ': ' + e.message); process.exit(1); });
" || fail "the tests need PostgreSQL (set DATABASE_URL or TEST_DATABASE_URL)"

# Built once, here: the embedded target then starts what `npm start` starts without building again
# (a build empties public/build, which the other runners are serving from).
npm run build --silent >/dev/null || fail "build failed"
export E2E_BUILT=1

mkdir -p tests/.tmp
rm -rf tests/.tmp/reports tests/.tmp/*-data
mkdir -p tests/.tmp/reports
status=0

declare -A titles=(
  [vitest]="unit and integration tests (vitest)"
  [e2e-js]="browser journeys on PostgreSQL, JavaScript on (playwright)"
  [e2e-nojs]="browser journeys on PostgreSQL, JavaScript off (playwright)"
  [e2e-embedded]="browser journeys on a zero-configuration npm start (playwright)"
)
declare -A runners=()
run() {
  local name=$1
  shift
  echo "== started: ${titles[$name]} (output: tests/.tmp/reports/$name.log)"
  "$@" >"tests/.tmp/reports/$name.log" 2>&1 &
  runners[$!]=$name
}

run vitest node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json=tests/.tmp/reports/vitest.json
database="${E2E_DATABASE:-aligner_e2e}"
run e2e-js env E2E_RUN=e2e-js E2E_PORT="${E2E_PORT:-3210}" E2E_DATABASE="$database" PLAYWRIGHT_JSON_OUTPUT_NAME=tests/.tmp/reports/e2e-js.json node_modules/.bin/playwright test --project js
run e2e-nojs env E2E_RUN=e2e-nojs E2E_PORT="${E2E_NOJS_PORT:-3230}" E2E_DATABASE="${database}_nojs" PLAYWRIGHT_JSON_OUTPUT_NAME=tests/.tmp/reports/e2e-nojs.json node_modules/.bin/playwright test --project nojs
run e2e-embedded env E2E_TARGET=embedded E2E_PORT="${E2E_EMBEDDED_PORT:-3220}" PLAYWRIGHT_JSON_OUTPUT_NAME=tests/.tmp/reports/e2e-embedded.json node_modules/.bin/playwright test

# Stopped (Ctrl-C, CI cancelling): each runner is asked to stop as on Ctrl-C, so Playwright stops the
# servers it started and nothing keeps the ports for the next run.
trap 'kill -INT "${!runners[@]}" 2>/dev/null; wait; exit 130' INT TERM

# Each runner's output as it ends, whole, so the log reads one runner at a time.
while [ ${#runners[@]} -gt 0 ]; do
  finished=""
  wait -n -p finished
  code=$?
  [ -n "$finished" ] || break
  name=${runners[$finished]}
  unset "runners[$finished]"
  [ "$code" = 0 ] || status=1
  echo
  echo "== ${titles[$name]}: exit $code after $(( $(date +%s) - started ))s"
  cat "tests/.tmp/reports/$name.log"
done

# The closing line: N passed, N failed, what the outside checkers looked at, and the wall time.
TEST_STARTED=$started node scripts/test-summary.mjs tests/.tmp/reports || status=1
exit $status
