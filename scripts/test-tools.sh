#!/usr/bin/env bash
# Test tools that come from PyPI: an S3-compatible server (moto) for the object-storage
# tests. Installed once into a virtual environment outside the repository; idempotent.
#
# Usage: scripts/test-tools.sh   (prints the path of moto_server)
set -euo pipefail

MOTO="moto[server]==5.2.5"
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/raceshot/test-venv"
if [ "$(cat "$VENV/.installed" 2>/dev/null || true)" != "$MOTO" ]; then
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "$MOTO" >&2
  echo "$MOTO" > "$VENV/.installed"
fi
echo "$VENV/bin/moto_server"
