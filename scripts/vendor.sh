#!/usr/bin/env bash
# Copies the SwiftPM dependencies, at the versions this checkout resolves, into DEST/vendor/ (default: this tree):
# each one's files at its tag, as a one-commit git repository carrying that tag, with none of its history. debian/rules
# points SwiftPM's mirror for the dependency's URL at that copy, so DEST builds with no network and Package.swift
# stays as it is. This is the one step of `make deb` that reads the dependencies' repositories.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=$(realpath "${1:-.}")
swift=${SWIFT:-swift}
"$swift" package resolve >/dev/null
for name in swift-argument-parser; do
  checkout=.build/checkouts/$name
  [ -f "$checkout/Package.swift" ] || { echo "vendor: $checkout was not resolved" >&2; exit 1; }
  version=$(git -C "$checkout" describe --tags --exact-match 2>/dev/null || git -C "$checkout" rev-parse HEAD)
  rm -rf "$dest/vendor/$name"
  mkdir -p "$dest/vendor/$name"
  git -C "$checkout" archive --format=tar HEAD | tar -x -C "$dest/vendor/$name"
  git -C "$dest/vendor/$name" init -q
  git -C "$dest/vendor/$name" add -A
  git -C "$dest/vendor/$name" -c user.name=vendor -c user.email=vendor@localhost commit -q -m "$name $version"
  git -C "$dest/vendor/$name" tag "$version"
  echo "$name $version" >> "$dest/vendor/VERSIONS.new"
done
mv "$dest/vendor/VERSIONS.new" "$dest/vendor/VERSIONS"
echo "vendored into $dest/vendor: $(tr '\n' ' ' < "$dest/vendor/VERSIONS")"
