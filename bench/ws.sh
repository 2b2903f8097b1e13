#!/usr/bin/env bash
# Runs bench/ws.ts with a file-descriptor limit that fits 10,000+ sockets on each side of the loopback.
set -euo pipefail
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
cd "$(dirname "$0")/.."
exec node --import tsx bench/ws.ts "$@"
