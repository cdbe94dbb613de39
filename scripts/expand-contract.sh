#!/usr/bin/env bash
# Expand and contract, checked: the release before the newest migration, built from git, answers the
# black-box suite's read-only checks on a database that this checkout's `npm run migrate` migrated.
# Read-only: what writes (webhooks, client applications, sandbox scenarios) tests this release's
# behaviour, not the schema; and the coverage check would count those operations missing.
# Run from the repository root after `npm ci` and `npm run build:service`.
set -euo pipefail

# The glob stops at the folder: an online step (migrations/online/<tag>.sql) belongs to its migration.
newest_migration=$(git log -1 --format=%H --diff-filter=A -- ':(glob)migrations/*.sql')
if [ -z "$newest_migration" ] || ! git cat-file -e "${newest_migration}^" 2>/dev/null; then
  echo "expand/contract: SKIPPED (this clone has no history before the newest migration)"
  exit 0
fi
previous=$(git rev-parse "${newest_migration}^")
work=$(mktemp -d)
service=
cleanup() {
  if [ -n "$service" ]; then kill "$service" 2>/dev/null || true; wait "$service" 2>/dev/null || true; fi
  git worktree remove --force "$work/previous" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "expand/contract: ${previous:0:12} (before $(git log -1 --format=%s "$newest_migration" | cut -c1-60)…) on this checkout's migrations"
git worktree add --detach --quiet "$work/previous" "$previous"
# The previous release's dependencies are this checkout's, or older ones it does not import.
ln -s "$PWD/node_modules" "$work/previous/node_modules"
# Compiled as this checkout compiles (SWC, with its .swcrc files) rather than by that release's
# own scripts: the same JavaScript as its `tsc` build where it had one, without checking its types
# again (they were checked when it landed), for a tenth of the CPU. The service, and the sandbox
# where that release has one.
compile() { # <folder in the previous release> <.swcrc>
  (cd "$work/previous/$1" && node "$root/node_modules/@swc/cli/bin/swc.js" src --out-dir dist \
    --strip-leading-paths --config-file "$2" --quiet \
    --ignore '**/*.spec.ts' --ignore '**/*.integration-spec.ts' --ignore 'src/testing/**')
}
root=$PWD
compile . "$root/.swcrc"
if [ -f "$work/previous/scripts/start.mjs" ]; then compile sandbox "$root/sandbox/.swcrc"; fi

# Migrated by this checkout, as a deployment's first step does; then the previous release on it
# (demo mode: its own migrations are found applied, its demo users and data are seeded).
PGLITE_DIR="$work/data" node dist/cli/migrate.js
free_port() {
  node -e "const s = require('net').createServer().listen(0, () => { console.log(s.address().port); s.close(); })"
}
port=$(free_port)
# Started as that release's README starts it: with its sandbox where it has one.
entry=dist/main.js
[ -f "$work/previous/scripts/start.mjs" ] && entry=scripts/start.mjs
(cd "$work/previous" && PORT=$port SANDBOX_PORT=$(free_port) PGLITE_DIR="$work/data" PORTAL_ENABLED=false \
  LOG_LEVEL=warn exec node "$entry") &
service=$!
node scripts/wait-until-ready.mjs "http://127.0.0.1:$port/health/ready" 120
E2E_BASE_URL=http://127.0.0.1:$port E2E_USERNAME=acme E2E_PASSWORD=acme-demo-2026 \
  E2E_OTHER_USERNAME=globex E2E_OTHER_PASSWORD=globex-demo-2026 \
  node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects remote --runInBand \
  --testPathIgnorePatterns 'webhooks|clients|scenarios|openapi-coverage'
