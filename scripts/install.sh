#!/usr/bin/env bash
# Installs what the product and its tests need on a fresh Debian machine with Node 20:
# pnpm (exact version), the workspace's packages, and the Debian packages the flags below ask for.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests need, each only when asked for and missing: --browser installs chromium (the e2e
# browser), --scanner installs wapiti (the security scan of `pnpm test:security`), --nginx installs nginx and
# --postgres PostgreSQL (`pnpm start:cluster`, its test, and the API tests on PostgreSQL; the scripts start
# servers of their own with its programs, testing/local-postgres), --systemd systemd's tools
# (`systemd-analyze verify` of infra/systemd/ in `pnpm test:systemd`; nothing is started with them),
# --prometheus Prometheus (the cluster's `--prometheus` and its test, which start it with a config of their
# own; Debian's postinst may try to start its service: that one is never used).
# What is missing is decided by scripts/prerequisites.mjs, the check `pnpm start:cluster` makes too (so it
# runs after `pnpm install`, as it uses the workspace). The flags are read first: a wrong one stops at once.
WANTED=()
for flag in "$@"; do
  case "$flag" in
    --browser) WANTED+=(chromium) ;;
    --scanner) WANTED+=(wapiti) ;;
    --nginx) WANTED+=(nginx) ;;
    --postgres) WANTED+=(postgres) ;;
    --systemd) WANTED+=(systemd-analyze) ;;
    --prometheus) WANTED+=(prometheus) ;;
    *) echo "unknown option: $flag" >&2; exit 2 ;;
  esac
done

PNPM_VERSION=10.34.9
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
  echo "installing pnpm $PNPM_VERSION"
  npm install -g "pnpm@$PNPM_VERSION" >/dev/null
fi

pnpm install --frozen-lockfile

# The Debian packages missing of those asked for, then a last check that names anything still missing.
if [ "${#WANTED[@]}" -gt 0 ]; then
  DEBIAN_PACKAGES=()
  read -r -a DEBIAN_PACKAGES <<< "$(node scripts/prerequisites.mjs --debian "${WANTED[@]}")"
  if [ "${#DEBIAN_PACKAGES[@]}" -gt 0 ]; then
    echo "installing Debian's ${DEBIAN_PACKAGES[*]}"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${DEBIAN_PACKAGES[@]}" >/dev/null
  fi
  # Whatever is still missing (no apt-get, a package that did not install) is named here, not later.
  node scripts/prerequisites.mjs "${WANTED[@]}" >/dev/null
fi
