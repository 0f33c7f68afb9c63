#!/usr/bin/env bash
# Installs the players `make bench` compares against (mpv with mpv-mpris, VLC, MPD with mpc) and the unprivileged
# user VLC runs as (it refuses root).
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends mpv mpv-mpris vlc-bin vlc-plugin-base vlc-plugin-video-output coreutils util-linux \
  mpd mpc
id -u reprisebench >/dev/null 2>&1 || $sudo useradd --system --no-create-home --shell /usr/sbin/nologin reprisebench
