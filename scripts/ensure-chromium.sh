#!/usr/bin/env bash
# Browser tests drive Debian's chromium (playwright cannot download its own browsers here).
# Installs it when missing and we are root; otherwise says exactly what to install.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests (about 20 s)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
fi
cat >&2 <<MSG
The browser tests need Chromium at $CHROMIUM and it is not installed.
Install it with:   sudo apt-get install -y chromium
(or point CHROMIUM_PATH at another Chromium/Chrome binary).
MSG
exit 1
