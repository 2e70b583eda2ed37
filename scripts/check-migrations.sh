#!/usr/bin/env bash
# Drift gate: fails when the Drizzle schema has changes that no committed migration holds.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=apps/api/drizzle
before=$(git status --porcelain -- "$dir")
npx drizzle-kit check --config apps/api/drizzle.config.ts
npx drizzle-kit generate --config apps/api/drizzle.config.ts --name drift_check >/dev/null
after=$(git status --porcelain -- "$dir")
if [ "$before" != "$after" ]; then
  echo "The schema in apps/api/src/db/schema.ts has changes without a migration." >&2
  echo "Run 'npm run db:generate -- --name <what-changed>' and commit the new file in $dir." >&2
  git status --porcelain -- "$dir" >&2
  # leave the tree as it was
  git checkout -- "$dir" 2>/dev/null || true
  git clean -fdq -- "$dir"
  exit 1
fi
echo "migrations: schema and migrations agree"
