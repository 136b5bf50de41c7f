#!/usr/bin/env bash
# Regenerates expected/NAME.json for every library (or the names given) with node running the
# very same source text the engines run. Run fetch.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./cmd/regenlibs "$@"
