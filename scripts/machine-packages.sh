#!/usr/bin/env bash
# The Debian packages the test suite needs from the machine: Chromium and its headless shell (browser journeys), OpenSSH
# (SFTP tests), PgBouncer (pooled database tests), a Java runtime (the Nu HTML Checker, vnu-jar) and
# promtool (Prometheus's checker of the alert rules, taken out of Debian's package into .cache).
# Installs what is missing when it can (root and apt-get); otherwise says which package to install.
# Sourced by scripts/test.sh; `.ci/run` runs it before `npm ci`, so that vnu-jar's install step finds
# Debian's Java and downloads none.
set -uo pipefail

apt_install() {
  if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
    echo "npm test: $1 is missing and cannot be installed here (need root and apt-get): install the Debian package '$2'" >&2
    return 1
  fi
  echo "installing $2 (missing on this machine)..."
  if [ -z "${APT_UPDATED:-}" ]; then apt-get update -qq || { echo "npm test: apt-get update failed" >&2; return 1; }; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null || { echo "npm test: could not install $2" >&2; return 1; }
}

# promtool alone, from Debian's prometheus package unpacked into .cache: no service is installed or started.
PROMTOOL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.cache/prometheus"
promtool_unpacked() {
  [ -x "$PROMTOOL_ROOT/usr/bin/promtool" ] && return 0
  command -v apt-get >/dev/null || { echo "npm test: promtool is missing: install the Debian package 'prometheus' or put promtool on PATH" >&2; return 1; }
  local download
  download="$(mktemp -d)"
  (cd "$download" && { apt-get download -qq prometheus 2>/dev/null || { [ "$(id -u)" = "0" ] && apt-get update -qq && apt-get download -qq prometheus 2>/dev/null; }; }) || { echo "npm test: could not download Debian's prometheus package for promtool" >&2; rm -rf "$download"; return 1; }
  # Only the one binary is kept: the package's web assets would be read by the linters.
  mkdir -p "$download/unpacked" "$PROMTOOL_ROOT/usr/bin" && dpkg -x "$download"/prometheus_*.deb "$download/unpacked" && cp "$download/unpacked/usr/bin/promtool" "$PROMTOOL_ROOT/usr/bin/promtool"
  local unpacked=$?
  rm -rf "$download"
  [ "$unpacked" = 0 ] && [ -x "$PROMTOOL_ROOT/usr/bin/promtool" ]
}

machine_packages() {
  [ -x /usr/bin/chromium ] || apt_install "Chromium" chromium || return 1
  # The browser journeys' browser (playwright.config.ts): Chromium's old headless shell.
  [ -x /usr/lib/chromium/chromium-headless-shell ] || apt_install "Chromium's headless shell" chromium-headless-shell || return 1
  [ -x /usr/sbin/sshd ] || apt_install "OpenSSH server" openssh-server || return 1
  [ -x /usr/sbin/pgbouncer ] || apt_install "PgBouncer" pgbouncer || return 1
  command -v java >/dev/null || apt_install "Java (for the Nu HTML Checker)" default-jre-headless || return 1
  command -v openssl >/dev/null || apt_install "OpenSSL (opens a sign-in token in a unit test)" openssl || return 1
  command -v promtool >/dev/null || promtool_unpacked || return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then machine_packages; fi
