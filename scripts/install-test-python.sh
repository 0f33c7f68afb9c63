#!/usr/bin/env bash
# Installs the Python servers the integration tests talk to into a virtual environment of the test set-up
# (.build/test-python): Maloja, a scrobble server that speaks ListenBrainz's API. Only when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/test-python
maloja_version=3.2.3
if [ -x "$venv/bin/maloja" ] && "$venv/bin/pip" show malojaserver 2>/dev/null | grep -q "^Version: $maloja_version$"; then
  exit 0
fi
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends python3-venv
fi
rm -rf "$venv"
mkdir -p .build
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "malojaserver==$maloja_version"
echo "installed Maloja $maloja_version in $venv"
