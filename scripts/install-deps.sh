#!/usr/bin/env bash
# Installs the Debian packages Reprise needs (only the missing ones).
#   install-deps.sh          what building and running need: `make run` and `make build`
#   install-deps.sh --test   that, and the rigs the tests drive: `make test`
#   install-deps.sh --deb    that, and what building and checking the Debian package needs: `make deb`
set -euo pipefail
# Building: the toolchain's C side and the -dev packages behind the shim targets (debian/control's Build-Depends
# lists the same).
build=(
  pkg-config gcc g++ libc6-dev python3
  libsystemd-dev libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libpulse-dev
  libx11-dev libxi-dev libwayland-dev libdecor-0-dev libxkbcommon-dev
  libtag1-dev libebur128-dev libcurl4-openssl-dev libavformat-dev
)
# Running, as a desktop has it: GStreamer's plugin set, a sound server, the session bus, and what the demo shows
# (playerctl; gdbus from libglib2.0-bin; gst-launch-1.0 makes the samples).
run=(
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-plugins-ugly gstreamer1.0-libav gstreamer1.0-pulseaudio gstreamer1.0-x
  libdecor-0-plugin-1-cairo libpangocairo-1.0-0 libcairo2 libsqlite3-0 libx11-6 libxi6
  libwayland-client0 libwayland-cursor0 libdecor-0-0 libxkbcommon0 libebur128-1 libavformat59 fonts-dejavu-core shared-mime-info
  pulseaudio pulseaudio-utils dbus dbus-daemon dbus-bin libglib2.0-bin playerctl
)
# The tests' rigs: compositors and X servers with their input and screenshot tools (and an XSETTINGS manager, the
# desktop's double-click interval), a second player, MPD and its
# clients (and chromaprint's library, whose decoder reads fingerprints), PipeWire's set, tools that make hostile media, Rygel
# (its MPRIS plugin makes Reprise a UPnP renderer),
# Snapcast's server and client (rooms fed by Reprise, controlled through its plugin; what snapserver's own
# meta_mpd.py imports, the reference the plugin is compared with), and an AirPlay speaker (shairport-sync, which
# needs avahi) for PipeWire's RAOP sink.
test=(
  procps tmux util-linux xvfb xdotool x11-utils x11-xserver-utils xsettingsd
  sway xwayland wtype grim kwin-wayland
  mpv mpv-mpris ffmpeg sqlite3
  pipewire pipewire-pulse wireplumber pipewire-bin
  mpd mpc ncmpcpp python3-mpd cantata libchromaprint1
  rygel snapserver snapclient shairport-sync avahi-daemon
  python3-musicbrainzngs python3-dbus python3-gi
)
# The Debian package: building it, and the checks its test runs.
deb=(debhelper dpkg-dev fakeroot python3 lintian desktop-file-utils appstream systemd iproute2)
packages=("${build[@]}" "${run[@]}")
case "${1:-}" in
  --test) packages+=("${test[@]}" "${deb[@]}") ;;
  --deb) packages+=("${deb[@]}") ;;
  "") ;;
  *) echo "usage: $0 [--test|--deb]" >&2; exit 2 ;;
esac
# The Swift toolchain is not a Debian package (Debian 12 has none): say where it comes from rather than fail later.
swift=${SWIFT:-swift}
if ! swift_version=$("$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\)\..*/\1/p' | head -1) \
   || [ -z "$swift_version" ]; then
  echo "install-deps: no Swift toolchain ('$swift'): Reprise needs Swift 6 from https://www.swift.org/install/linux/" >&2
  echo "  (Debian 12 packages none); unpack it, e.g. in /opt/swift, and put its usr/bin on PATH." >&2
  exit 1
elif [ "$swift_version" -lt 6 ]; then
  echo "install-deps: $("$swift" --version 2>&1 | head -1) is too old: Reprise needs Swift 6 (https://www.swift.org)" >&2
  exit 1
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
