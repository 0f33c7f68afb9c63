#!/usr/bin/env bash
# Installs the Debian packages that building, running and testing Reprise need (only the missing ones).
set -euo pipefail
packages=(
  pkg-config libsystemd-dev libglib2.0-dev libglib2.0-bin
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-pulseaudio
  libpulse-dev pulseaudio pulseaudio-utils
  dbus dbus-daemon dbus-bin playerctl procps tmux
  libx11-dev libxi-dev gstreamer1.0-x xvfb xdotool x11-utils
  libwayland-dev libdecor-0-dev libdecor-0-plugin-1-cairo libxkbcommon-dev
  mpv mpv-mpris shared-mime-info gcc libc6-dev sway xwayland x11-xserver-utils wtype grim kwin-wayland
  pipewire pipewire-pulse wireplumber pipewire-bin util-linux
  gstreamer1.0-libav ffmpeg libsqlite3-dev
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly sqlite3 libtag1-dev g++ libebur128-dev libcurl4-openssl-dev
  mpd mpc ncmpcpp python3-mpd cantata
  libpango1.0-dev libcairo2-dev fonts-dejavu-core
)
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
