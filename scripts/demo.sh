#!/usr/bin/env bash
# `make run`: plays the generated samples through Reprise on a real session bus and sound server,
# and shows what playerctl (any MPRIS client) sees while they play.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${REPRISE_BINARY:-.build/release/reprise}
samples=build/samples
scripts/make-samples.sh "$samples"
# shellcheck source=private-session.sh
. scripts/private-session.sh

"$binary" "$samples" &
reprise_pid=$!
private_pids=("$reprise_pid" "${private_pids[@]}")
for _ in $(seq 100); do playerctl -l 2>/dev/null | grep -q '^reprise' && break; sleep 0.05; done
echo "MPRIS players on the bus: $(playerctl -l | tr '\n' ' ')"
last=""
while kill -0 "$reprise_pid" 2>/dev/null; do
  status=$(playerctl -p reprise status 2>/dev/null || echo gone)
  title=$(playerctl -p reprise metadata title 2>/dev/null || true)
  if [ "$status $title" != "$last" ]; then
    echo "== $status: $title"
    playerctl -p reprise metadata 2>/dev/null || true
    last="$status $title"
  fi
  [ "$status" = "Stopped" ] && break
  sleep 0.5
done
playerctl -p reprise position 2>/dev/null || true
gdbus call --session --dest org.mpris.MediaPlayer2.reprise --object-path /org/mpris/MediaPlayer2 \
  --method org.mpris.MediaPlayer2.Quit >/dev/null
wait "$reprise_pid" && echo "reprise quit cleanly"
