#!/usr/bin/env bash
# `make package-test`: checks the Debian package `make deb` built, then installs it on this machine (as root, with
# apt), starts the installed service by D-Bus activation on a private session bus in the user unit's sandbox
# (scripts/package-play.sh), hears it play a tone at a private PulseAudio's null sink, and purges the package,
# checking nothing of it is left.
# Every check prints "ok" or "FAIL"; the script exits 1 after the first failure's teardown.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls build/deb/reprise_*.deb 2>/dev/null | grep -v dbgsym | head -1 || true)
[ -n "$deb" ] || { echo "FAIL: no package in build/deb (run make deb)"; exit 1; }
deb=$(realpath "$deb")
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
work=$(mktemp -d /tmp/reprise-package-test.XXXXXX)
chmod 700 "$work"
teardown() {
  if dpkg-query -W -f='${Status}' reprise 2>/dev/null | grep -q "ok installed"; then
    $sudo dpkg --purge reprise >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap teardown EXIT
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }

echo "== the package: $deb"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
for file in /usr/bin/reprise /usr/libexec/reprised /usr/libexec/reprise-tag-reader /usr/libexec/reprise-snapcast /usr/lib/systemd/user/reprise.service \
    /usr/share/dbus-1/services/org.mpris.MediaPlayer2.reprise.service \
    /usr/share/applications/reprise.desktop /usr/share/icons/hicolor/scalable/apps/reprise.svg \
    /usr/share/metainfo/app.reprise.Reprise.metainfo.xml /usr/share/man/man1/reprise.1.gz \
    /usr/share/gnome-shell/search-providers/reprise-search-provider.ini /usr/share/krunner/dbusplugins/reprise.desktop \
    /usr/share/bash-completion/completions/reprise /usr/share/zsh/vendor-completions/_reprise \
    /usr/share/fish/vendor_completions.d/reprise.fish /usr/share/doc/reprise/copyright; do
  grep -qx "$file" <<<"$contents" || fail "the package has no $file"
done
ok "ships the command, the service, the unit, activation, desktop, metainfo, man page and completions"
depends=$(dpkg-deb -f "$deb" Depends)
echo "   Depends: $depends"
grep -q -- '-dev\b' <<<"$depends" && fail "Depends names a -dev package"
for needed in libgstreamer1.0-0 libpulse0 libsystemd0 gstreamer1.0-plugins-base gstreamer1.0-plugins-good; do
  grep -q "$needed" <<<"$depends" || fail "Depends lacks $needed"
done
ok "Depends: shared libraries from the binaries, GStreamer's plugins, no -dev package"

echo "== lintian"
lintian_out=$work/lintian.txt
lintian --fail-on error --allow-root --info "$deb" > "$lintian_out" 2>&1 || { cat "$lintian_out"; fail "lintian reports errors"; }
cat "$lintian_out"
ok "lintian: no errors ($(grep -c '^W:' "$lintian_out" || true) warnings)"

echo "== install"
$sudo apt-get install -y -q --no-install-recommends "$deb" > "$work/apt.txt" 2>&1 || { cat "$work/apt.txt"; fail "apt-get install"; }
installed_files=$(dpkg -L reprise)
ok "installed with apt-get"
package_version=$(dpkg-deb -f "$deb" Version)
[ "$(/usr/bin/reprise --version)" = "reprise $package_version" ] \
  || fail "reprise --version says '$(/usr/bin/reprise --version)', the package $package_version"
[ "$(dpkg-parsechangelog -S Version)" = "$package_version" ] || fail "debian/changelog and the package disagree"
ok "reprise --version = the package's version = the changelog's ($package_version)"
for verb in $(/usr/bin/reprise --experimental-dump-help | python3 -c '
import json, sys
print(" ".join(s["commandName"] for s in json.load(sys.stdin)["command"]["subcommands"] if s["commandName"] != "help"))'); do
  pattern=".SS \\fBreprise\\fR \\fB${verb//-/\\-}\\fR"
  zcat /usr/share/man/man1/reprise.1.gz | grep -qF "$pattern" || fail "the man page does not name the verb $verb"
done
ok "the man page names every verb the parser has"

echo "== metadata"
appstreamcli validate --no-net /usr/share/metainfo/app.reprise.Reprise.metainfo.xml || fail "appstreamcli validate"
grep -q '<launchable type="desktop-id">reprise.desktop</launchable>' /usr/share/metainfo/app.reprise.Reprise.metainfo.xml \
  || fail "the metainfo's launchable is not reprise.desktop"
grep -q "<release version=\"$package_version\" date=\"" /usr/share/metainfo/app.reprise.Reprise.metainfo.xml \
  || fail "the metainfo's release is not $package_version"
desktop-file-validate /usr/share/applications/reprise.desktop || fail "desktop-file-validate reprise.desktop"
desktop-file-validate /usr/share/krunner/dbusplugins/reprise.desktop || fail "desktop-file-validate (KRunner's)"
ok "appstreamcli and desktop-file-validate"

echo "== the user unit"
export XDG_RUNTIME_DIR=$work/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
systemd-analyze --user verify /usr/lib/systemd/user/reprise.service || fail "systemd-analyze verify"
security=$(systemd-analyze --user security --offline=true /usr/lib/systemd/user/reprise.service 2>&1)
exposure=$(sed -n 's/.*Overall exposure level for reprise.service: \([0-9.]*\).*/\1/p' <<<"$security")
[ -n "$exposure" ] || { echo "$security"; fail "no exposure level"; }
python3 -c "import sys; sys.exit(0 if float('$exposure') <= 5.0 else 1)" || { echo "$security"; fail "exposure $exposure > 5.0"; }
ok "the unit verifies; exposure $exposure (at most 5.0)"
grep -q '^Exec=/usr/libexec/reprised$' /usr/share/dbus-1/services/org.mpris.MediaPlayer2.reprise.service \
  && grep -q '^SystemdService=reprise.service$' /usr/share/dbus-1/services/org.mpris.MediaPlayer2.reprise.service \
  || fail "the activation file does not name the installed service and unit"
[ ! -e /etc/systemd/user/default.target.wants/reprise.service ] || fail "the unit was enabled for every user"
ok "activation file names /usr/libexec/reprised and reprise.service; the unit is not enabled for every user"

echo "== activation and playback, in the unit's sandbox"
mkdir "$work/play"
unshare -m --propagation private -- scripts/package-play.sh "$work/play" || fail "activation and playback"

echo "== purge"
$sudo dpkg --purge reprise > "$work/purge.txt" 2>&1 || { cat "$work/purge.txt"; fail "dpkg --purge"; }
left=()
while IFS= read -r path; do
  [ -f "$path" ] || [ -L "$path" ] && left+=("$path")
done <<<"$installed_files"
[ ${#left[@]} -eq 0 ] || fail "left behind: ${left[*]}"
links=$(find /etc/systemd/user /var/lib/systemd/deb-systemd-user-helper-enabled -name '*reprise*' 2>/dev/null || true)
[ -z "$links" ] || fail "unit links left: $links"
dpkg-query -W reprise >/dev/null 2>&1 && fail "dpkg still knows reprise"
ok "purged: no file, unit link or package state left"
echo "package test passed"
