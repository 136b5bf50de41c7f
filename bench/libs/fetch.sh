#!/usr/bin/env bash
# Installs the pinned libraries of the library set (package-lock.json) into node_modules,
# which the harness reads the published bundle files from. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
