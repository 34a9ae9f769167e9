#!/usr/bin/env bash
# The product on two API instances behind nginx on this one machine (issue 12): installs pnpm, the
# workspace and Debian's nginx, builds what is missing, and runs `pnpm start:cluster` until Ctrl+C.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --nginx
exec pnpm start:cluster
