#!/usr/bin/env bash
# The product on two API instances behind nginx on PostgreSQL, on this one machine (issue 12): installs
# pnpm, the workspace and Debian's nginx and PostgreSQL, builds what is missing, and runs
# `pnpm start:cluster` (its own PostgreSQL server on 5433, data in data/cluster-postgres) until Ctrl+C.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --nginx --postgres
exec pnpm start:cluster
