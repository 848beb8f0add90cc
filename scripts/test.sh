#!/usr/bin/env bash
# `npm test`: the whole suite — unit, integration (real PostgreSQL, S3 server, OpenSSH SFTP, SMTP sink),
# and browser journeys (Debian's Chromium, JavaScript on and off) on PostgreSQL and on a zero-config
# `npm start`, with the outside checkers (axe-core; the Nu HTML Checker on Debian's Java) over every
# page a user meets (ADR 048). Installs what a fresh Debian machine lacks when it can; never skips
# silently. Runs on whichever `node` is first on PATH (CI puts Node 24 first, ADR 049).
set -uo pipefail
cd "$(dirname "$0")/.."

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

npm run build --silent >/dev/null || fail "build failed"

mkdir -p tests/.tmp
rm -rf tests/.tmp/reports tests/.tmp/embedded-data tests/.tmp/e2e-data
mkdir -p tests/.tmp/reports
status=0

echo "== unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json=tests/.tmp/reports/vitest.json || status=1

echo "== browser journeys on PostgreSQL (playwright)"
PLAYWRIGHT_JSON_OUTPUT_NAME=tests/.tmp/reports/e2e.json npx playwright test || status=1

echo "== browser journeys on a zero-configuration npm start (playwright)"
E2E_TARGET=embedded PLAYWRIGHT_JSON_OUTPUT_NAME=tests/.tmp/reports/e2e-embedded.json npx playwright test || status=1

node scripts/test-summary.mjs tests/.tmp/reports || status=1
exit $status
