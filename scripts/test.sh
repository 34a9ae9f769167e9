#!/usr/bin/env bash
# One command for a newcomer and for CI: install everything (pnpm, the workspace, Debian's chromium and
# wapiti), then typecheck, lint, unit and API tests, production builds, the e2e suite and the security scan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --browser --scanner
exec pnpm test
