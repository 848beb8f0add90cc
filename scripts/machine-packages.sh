#!/usr/bin/env bash
# The Debian packages the test suite needs from the machine: Chromium (browser journeys), OpenSSH
# (SFTP tests), PgBouncer (pooled database tests) and a Java runtime (the Nu HTML Checker, vnu-jar).
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

machine_packages() {
  [ -x /usr/bin/chromium ] || apt_install "Chromium" chromium || return 1
  [ -x /usr/sbin/sshd ] || apt_install "OpenSSH server" openssh-server || return 1
  [ -x /usr/sbin/pgbouncer ] || apt_install "PgBouncer" pgbouncer || return 1
  command -v java >/dev/null || apt_install "Java (for the Nu HTML Checker)" default-jre-headless || return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then machine_packages; fi
