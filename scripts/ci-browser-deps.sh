#!/usr/bin/env bash
# Installs what the tests that drive outside tools need: Debian's Chromium (tests/show_browser.rs)
# and node with npm (tests/show_fumen.rs). Called from .ci/run; does nothing when they are there.
# Exits non-zero when it could not install them (under CI=true those tests fail without them).
# Not root: under CI=true that is a failure too; otherwise a note that those tests will skip.
set -euo pipefail
missing() {
  local m=""
  command -v chromium >/dev/null 2>&1 || m+=" chromium"
  command -v node >/dev/null 2>&1 || m+=" nodejs"
  command -v npm >/dev/null 2>&1 || m+=" npm"
  echo "${m# }"
}
need=$(missing)
if [ -z "$need" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  if [ "${CI:-}" = true ]; then
    echo "ci-browser-deps: $need missing and not root, so not installed; CI=true, so the tests that need them would fail" >&2
    exit 1
  fi
  echo "ci-browser-deps: $need missing and not root; the tests that need them will skip (as root: apt-get install $need)" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# $need is a list of package names, split on purpose.
# shellcheck disable=SC2086
if ! { apt-get update -qq && apt-get install -y -qq $need >/dev/null; }; then
  echo "ci-browser-deps: could not install $need" >&2
  exit 1
fi
still=$(missing)
if [ -n "$still" ]; then
  echo "ci-browser-deps: $still still missing after apt-get install $need" >&2
  exit 1
fi
chromium --version 2>/dev/null
