#!/usr/bin/env bash
# CI's check of `nest g feature`: generates a feature into a scratch copy of this working tree (its
# node_modules linked, not copied), then does what a developer does next and runs what CI would:
# the generated feature's own tests (unit, integration, e2e; the black-box spec is type-checked and
# linted, as it needs a deployment) with the SQL snapshot and the OpenAPI document refreshed, lint
# and type-check. Only the generated feature's tests run, to stay within a minute or two.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
feature=${1:-ci-probes}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/check-generator-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# Tracked and untracked files, not ignored ones: the tree as a developer has it, uncommitted edits included.
git ls-files -z --cached --others --exclude-standard |
  tar --null --files-from=- --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$scratch"
ln -s "$root/node_modules" "$scratch/node_modules"
cd "$scratch"

step() {
  local started=$SECONDS
  "$@"
  echo "[check-generator] $* took $((SECONDS - started)) s"
}

step npx --no-install nest generate feature "$feature"
generated=(src/"$feature" test/"$feature".e2e-spec.ts test/remote/"$feature".remote-spec.ts)
edited=(src/app.module.ts src/config/app.config.ts .dependency-cruiser.mjs)

# One Jest run: the feature's unit, integration and e2e specs, the config specs its edit touched,
# and the SQL snapshot and OpenAPI document refreshed with it in, as a developer's next step.
step env UPDATE_SQL_SNAPSHOT=1 UPDATE_OPENAPI=1 \
  node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects unit integration e2e -- \
  "src/$feature" src/config "test/$feature.e2e-spec.ts" src/queries test/openapi.e2e-spec.ts
test -s "src/queries/$feature.repository.sql" || {
  echo "[check-generator] no SQL snapshot for the generated repository" >&2
  exit 1
}
step npm run --silent lint:openapi

step npx --no-install prettier --check "${generated[@]}" "${edited[@]}"
# The service's project type-checked with the feature in it (the build, with SWC, checks no
# types), its files and the edited ones linted on that same program, and the layer rules.
step npm run --silent generate:client
lint_files=()
for file in "${generated[@]}" "${edited[@]}"; do lint_files+=(--file "$file"); done
step node --max-semi-space-size=128 scripts/check-code.mjs types eslint layers --project tsconfig.json "${lint_files[@]}"

echo "[check-generator] nest g feature $feature: generated, linted, type-checked and tested in $SECONDS s"
