#!/usr/bin/env bash
# One command for a newcomer and for CI: install everything (pnpm, the workspace, Debian's chromium and
# wapiti and nginx), then typecheck, lint, unit and API tests, production builds, the e2e suite, the cluster
# test (nginx + two API instances) and the security scan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --browser --scanner --nginx
exec pnpm test
