#!/usr/bin/env bash
# One command for a newcomer and for CI: install everything (pnpm, the workspace, Debian's chromium), then
# typecheck, lint, unit and API tests, production builds and the e2e suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --browser
exec pnpm test
