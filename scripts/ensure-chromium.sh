#!/usr/bin/env bash
# Browser tests run in Debian's Chromium. Install it when it is missing (as root), or say how.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's chromium package (about 30 s)..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
fi
echo "Browser tests need Chromium at $CHROMIUM: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH), then npm test again." >&2
exit 1
