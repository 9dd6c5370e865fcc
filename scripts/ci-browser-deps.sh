#!/usr/bin/env bash
# Installs what the browser test (tests/show_browser.rs) needs: Debian's Chromium.
# Called from .ci/run; does nothing when chromium is already there.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ci-browser-deps: chromium missing and not root; the browser test will skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if apt-get update -qq && apt-get install -y -qq chromium >/dev/null; then
  chromium --version
else
  echo "ci-browser-deps: could not install chromium; the browser test will skip" >&2
fi
