#!/usr/bin/env bash
# One command for a newcomer: install everything, build, and run the whole product on the default ports.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec pnpm start
