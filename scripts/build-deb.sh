#!/usr/bin/env bash
# `make deb`: builds Reprise's Debian package into build/deb/ from an export of this tree (its files as they are
# now, committed or not, without what git ignores), with the SwiftPM dependency vendored into the export, and then
# `dpkg-buildpackage -us -uc -b` with no network and an empty HOME: what a Debian build machine does.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(dpkg-parsechangelog -S Version)
out=build/deb
tree=$out/reprise-$version
rm -rf "$out"
mkdir -p "$tree"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"
done | tar --null -T - -c | tar -x -C "$tree"
scripts/vendor.sh "$tree"

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
offline=()
# No network: a network namespace of its own with only loopback up (root, or an unprivileged user namespace).
# Loopback stays: Foundation's run loop in SwiftPM's plugin host wakes itself through a loopback socket pair, and
# without one the build hangs.
with_loopback=(sh -c 'ip link set lo up && exec "$@"' sh)
if [ "$(id -u)" -eq 0 ] && unshare -n true 2>/dev/null; then offline=(unshare -n -- "${with_loopback[@]}")
elif unshare -r -n true 2>/dev/null; then offline=(unshare -r -n -- "${with_loopback[@]}")
else echo "build-deb: cannot drop the network here; building with it" >&2; fi
(cd "$tree" && "${offline[@]}" env -i PATH="$PATH" HOME="$home" LANG=C.UTF-8 SWIFT="${SWIFT:-swift}" \
  dpkg-buildpackage -us -uc -b)
ls -1 "$out"/*.deb
