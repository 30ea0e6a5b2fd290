#!/usr/bin/env bash
# setup.sh — check (and, as root, install) the system packages the build and the tests need.
#
# Usage: scripts/setup.sh build|test|bench [--no-database]
#   build  what `make run` / `make build` need: a C toolchain, cmake and nasm (libjpeg-turbo
#          is compiled from source with SIMD), Python 3 with pip (models), Node 20 with npm,
#          and the Thai fonts finisher certificates are set in
#   test   the above, plus what `make test` needs: PostgreSQL's client tools (a server must
#          answer on 127.0.0.1:5432, unless --no-database: CI starts it afterwards),
#          Chromium for the browser suite
#   bench  what `make bench` needs beside the build: wrk (the HTTP load), nginx (the
#          catalogue's peer) and Chromium (the page-weight run)
#
# Missing packages are installed with apt-get when this runs as root; otherwise the exact
# apt-get command is printed and the script fails. Rust, Node and Python are not installed
# here: the README names them as the prerequisites of a newcomer's machine.
# Idempotent and quiet when everything is there.
set -euo pipefail

what="${1:-build}"
check_database=true
[ "${2:-}" = "--no-database" ] && check_database=false
case "$what" in
  build | test | bench) ;;
  *) echo "usage: scripts/setup.sh build|test|bench" >&2; exit 2 ;;
esac

die() {
  echo "setup: $*" >&2
  exit 1
}

command -v cargo >/dev/null || die "Rust (cargo) is required: see the README"
command -v python3 >/dev/null || die "Python 3 with pip is required: see the README"
command -v node >/dev/null || die "Node 20 with npm is required: see the README"

# Debian package | how to tell it is there
checks=(
  "cmake|command -v cmake"
  "nasm|command -v nasm"
  "make|command -v make"
  "gcc|command -v cc"
  "python3-venv|python3 -c 'import ensurepip, venv'"
  "npm|command -v npm"
  "fonts-thai-tlwg|[ -f /usr/share/fonts/truetype/tlwg/Laksaman.ttf ]"
)
if [ "$what" = test ]; then
  checks+=(
    "postgresql-client|command -v pg_isready"
    "chromium|command -v chromium || [ -n \"\${CHROMIUM_PATH:-}\" ]"
    "openssl|command -v openssl"
  )
fi
if [ "$what" = bench ]; then
  checks+=(
    "wrk|command -v wrk"
    "curl|command -v curl"
    "nginx|command -v nginx || [ -x /usr/sbin/nginx ]"
    "chromium|command -v chromium || [ -n \"\${CHROMIUM_PATH:-}\" ]"
  )
fi

missing=()
for entry in "${checks[@]}"; do
  pkg="${entry%%|*}"
  check="${entry#*|}"
  bash -c "$check" >/dev/null 2>&1 || missing+=("$pkg")
done

if [ ${#missing[@]} -gt 0 ]; then
  cmd="apt-get install -y ${missing[*]}"
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    die "missing system packages; install them with: sudo apt-get update && sudo ${cmd}"
  fi
  echo "setup: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$what" = test ] && $check_database && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  if [ -z "${RACESHOT_TEST_POSTGRES_URL:-}" ]; then
    die "the tests need PostgreSQL on 127.0.0.1:5432 (trust authentication, database test), or RACESHOT_TEST_POSTGRES_URL"
  fi
fi
exit 0
