#!/usr/bin/env bash
# `npm test` after the tools check: Biome's lint and format check, the typecheck and each workspace's
# tests through turbo (cached in .turbo/: a workspace's tests run again only when its files, the services
# its tests start, packages/, test/support/ or the lock change), then the root-level tests (deploy/test,
# test/docs, test/tracing and the like), which always run. At most two test files run at a time: turbo
# runs two workspaces at once, each vitest one file at a time. The last lines list the failing
# tests, if any, and add up every run's tests ('N passed, N failed'); a failing workspace does not
# stop the root-level tests. The short proof scenarios are `npm run test:proof` (test-proof.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/test-summary.sh
use_node24
# Lint and format check of the whole tree (biome.json), before anything slower runs.
node_modules/.bin/biome ci .
# No import cycles in the sources, type-only imports included (dpdm; `npm run cycles`).
npm run --silent cycles
# Turbo stays off the network: no telemetry, no update check, no remote cache (turbo.json).
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 TURBO_NO_UPDATE_NOTIFIER=1
turbo_run() { node_modules/.bin/turbo run --ui=stream --log-order=grouped --output-logs=new-only "$@"; }

# One typecheck of the whole repository (tsconfig.json): every workspace's typecheck would each load
# most of the repository (its tests start the other services), several times the work.
# Every run's output also goes to a log, so the last line can add up the tests of all of them.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
turbo_run typecheck --filter=//
turbo_run test --concurrency=2 --continue -- --maxWorkers=1 2>&1 | tee -a "$log" || status=1
# The root-level tests run even when a workspace failed, so one run reports everything. The short
# proof scenarios (test/proof) are `npm run test:proof`, which CI runs after this.
node_modules/.bin/vitest run deploy/test/ test/architecture/ test/docs/ test/security/ test/support/ test/tracing/ 2>&1 |
  tee -a "$log" || status=1
summarise "$log" || status=1
exit "$status"
