#!/usr/bin/env bash
# How many e2e files run at once (jest's --maxWorkers), for scripts/test.sh and scripts/test-e2e.sh: printed from
# METALSLICE_E2E_WORKERS (default 2), or a clear error and exit 1 for anything but a number from 1 to 99.
set -euo pipefail
workers="${METALSLICE_E2E_WORKERS:-2}"
if [[ ! "$workers" =~ ^[1-9][0-9]?$ ]]; then
  echo "METALSLICE_E2E_WORKERS=\"$workers\" is not a number of e2e files to run at once (1 to 99; 1 runs them one after another)" >&2
  exit 1
fi
echo "$workers"
