#!/usr/bin/env bash
# One command for a newcomer and for CI: install everything (pnpm, the workspace, Debian's chromium,
# wapiti, nginx, PostgreSQL, systemd's tools and Prometheus), then typecheck, lint, unit and API tests (the
# API's on SQLite and on PostgreSQL), production builds, the e2e suite, the cluster tests (nginx + two API
# and two edge instances on PostgreSQL, processes killed and restarted; a real Prometheus scraping a
# cluster), the chaos test, the systemd units' check and the security scan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --browser --scanner --nginx --postgres --systemd --prometheus
exec pnpm test
