#!/usr/bin/env bash
# Installs (or with --uninstall removes) Reprise under DESTDIR/PREFIX.
# REPRISE_BINARY picks the binary to install (default: the release build).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${PREFIX:-/usr/local}
root=${DESTDIR:-}
binary=${REPRISE_BINARY:-.build/release/reprise}
bindir=$prefix/bin
share=$prefix/share
files=(
  "$bindir/reprise"
  "$share/applications/reprise.desktop"
  "$share/icons/hicolor/scalable/apps/reprise.svg"
  "$share/dbus-1/services/org.mpris.MediaPlayer2.reprise.service"
  "$share/dbus-1/interfaces/org.mpris.MediaPlayer2.xml"
  "$share/dbus-1/interfaces/org.mpris.MediaPlayer2.Player.xml"
  "$share/dbus-1/interfaces/org.mpris.MediaPlayer2.TrackList.xml"
  "$share/dbus-1/interfaces/org.mpris.MediaPlayer2.Playlists.xml"
  "$share/dbus-1/interfaces/app.reprise.AudioSession1.xml"
  "$share/man/man1/reprise.1"
  "$prefix/lib/systemd/user/reprise.service"
)
if [ "${1:-}" = "--uninstall" ]; then
  for f in "${files[@]}"; do rm -f "$root$f"; done
  exit 0
fi
subst() { sed "s|@BINDIR@|$bindir|g" "$1"; }
install -Dm755 "$binary" "$root$bindir/reprise"
install -Dm644 data/reprise.desktop "$root$share/applications/reprise.desktop"
install -Dm644 data/reprise.svg "$root$share/icons/hicolor/scalable/apps/reprise.svg"
install -d "$root$share/dbus-1/services" "$root$prefix/lib/systemd/user"
subst dbus/org.mpris.MediaPlayer2.reprise.service.in > "$root$share/dbus-1/services/org.mpris.MediaPlayer2.reprise.service"
subst data/reprise.service.in > "$root$prefix/lib/systemd/user/reprise.service"
chmod 644 "$root$share/dbus-1/services/org.mpris.MediaPlayer2.reprise.service" "$root$prefix/lib/systemd/user/reprise.service"
install -Dm644 dbus/org.mpris.MediaPlayer2.xml "$root$share/dbus-1/interfaces/org.mpris.MediaPlayer2.xml"
install -Dm644 dbus/org.mpris.MediaPlayer2.Player.xml "$root$share/dbus-1/interfaces/org.mpris.MediaPlayer2.Player.xml"
install -Dm644 dbus/org.mpris.MediaPlayer2.TrackList.xml "$root$share/dbus-1/interfaces/org.mpris.MediaPlayer2.TrackList.xml"
install -Dm644 dbus/org.mpris.MediaPlayer2.Playlists.xml "$root$share/dbus-1/interfaces/org.mpris.MediaPlayer2.Playlists.xml"
install -Dm644 dbus/app.reprise.AudioSession1.xml "$root$share/dbus-1/interfaces/app.reprise.AudioSession1.xml"
install -Dm644 data/reprise.1 "$root$share/man/man1/reprise.1"
