#!/usr/bin/env bash
# Installs what the product and its tests need on a fresh Debian machine with Node 20:
# pnpm (exact version), the workspace's packages, and the Debian packages the flags below ask for.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.9
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
  echo "installing pnpm $PNPM_VERSION"
  npm install -g "pnpm@$PNPM_VERSION" >/dev/null
fi

# Debian packages the tests need, each only when asked for and missing: --browser installs chromium (the e2e
# browser), --scanner installs wapiti (the security scan of `pnpm test:security`), --nginx installs nginx and
# --postgres PostgreSQL (`pnpm start:cluster`, its test, and the API tests on PostgreSQL; the scripts start
# servers of their own with its programs, testing/local-postgres), --systemd systemd's tools
# (`systemd-analyze verify` of infra/systemd/ in `pnpm test:systemd`; nothing is started with them).
DEBIAN_PACKAGES=()
for flag in "$@"; do
  case "$flag" in
    --browser) [ -x /usr/bin/chromium ] || DEBIAN_PACKAGES+=(chromium) ;;
    --scanner) command -v wapiti >/dev/null 2>&1 || DEBIAN_PACKAGES+=(wapiti) ;;
    --nginx) command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || DEBIAN_PACKAGES+=(nginx) ;;
    --postgres) compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || DEBIAN_PACKAGES+=(postgresql) ;;
    --systemd) command -v systemd-analyze >/dev/null 2>&1 || DEBIAN_PACKAGES+=(systemd) ;;
    *) echo "unknown option: $flag" >&2; exit 2 ;;
  esac
done
if [ "${#DEBIAN_PACKAGES[@]}" -gt 0 ]; then
  echo "installing Debian's ${DEBIAN_PACKAGES[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${DEBIAN_PACKAGES[@]}" >/dev/null
fi

pnpm install --frozen-lockfile
