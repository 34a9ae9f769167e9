#!/usr/bin/env bash
# The product on two API instances behind nginx on PostgreSQL, on this one machine (issue 12): installs
# pnpm, the workspace and Debian's nginx and PostgreSQL, builds what is missing, and runs
# `pnpm start:cluster` (its own PostgreSQL server on 5433, data in data/cluster-postgres) until Ctrl+C.
# `--prometheus` (or CLUSTER_PROMETHEUS=1) also installs Debian's prometheus and starts it on 9090,
# scraping every instance (issue 48; docs/operations.md, "Prometheus in the cluster").
set -euo pipefail
cd "$(dirname "$0")/.."
INSTALL=(--nginx --postgres)
START=()
for arg in "$@"; do
  case "$arg" in
    --prometheus) START+=(--prometheus) ;;
    *) echo "unknown option: $arg (the only one: --prometheus)" >&2; exit 2 ;;
  esac
done
if [ "${#START[@]}" -gt 0 ] || [ "${CLUSTER_PROMETHEUS:-}" = 1 ]; then INSTALL+=(--prometheus); fi
bash scripts/install.sh "${INSTALL[@]}"
exec pnpm start:cluster "${START[@]}"
