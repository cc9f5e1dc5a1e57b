#!/usr/bin/env bash
# Refreshes discord-api.json.gz, the pinned copy of Discord's API description that tests/e2e/discord_shapes.py reads,
# from the npm package discord-api-spec. A maintainer's step, never the tests': it needs node and npm, which the
# test command does not. See README.md beside this file.
#
#   tests/e2e/discord_spec/refresh.sh            # the versions pinned in package-lock.json
#   tests/e2e/discord_spec/refresh.sh --latest   # the newest discord-api-spec (updates package.json and the lock)
set -euo pipefail
cd "$(dirname "$0")"

if [ "${1:-}" = "--latest" ]; then
    npm install --no-audit --no-fund --save-exact discord-api-spec@latest
else
    npm ci --no-audit --no-fund
fi

exported=$(mktemp)
trap 'rm -f "$exported"' EXIT
node export_spec.mjs "$exported"
cp node_modules/discord-api-spec/LICENSE LICENSE

# One key a line, sorted, and gzip without a timestamp: the same description always gives the same bytes, and
# `diff <(zcat old) <(zcat new)` shows what Discord changed.
python3 - "$exported" discord-api.json.gz <<'PY'
import gzip
import json
import sys

document = json.load(open(sys.argv[1], encoding="utf-8"))
text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
with open(sys.argv[2], "wb") as out:
    out.write(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
print(f"{sys.argv[2]}: {len(document['paths'])} paths, {len(document['schemas'])} schemas, {document['source']}")
PY
