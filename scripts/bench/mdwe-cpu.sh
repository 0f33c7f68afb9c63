#!/usr/bin/env bash
# The CPU Reprise's service spends playing, with and without the kernel's memory-deny-write-execute (what the user
# unit's MemoryDenyWriteExecute=yes imposes; here PR_SET_MDWE, inherited through exec), in alternating runs.
# Also says how GStreamer's ORC mapped its code in each: one writable+executable anonymous mapping, or the same
# file mapped twice (orcexec.*).
# usage: scripts/bench/mdwe-cpu.sh [RUNS (default 3)] [SECONDS measured (default 30)]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-3} seconds=${2:-30}
service=$(realpath .build/release/reprised)
work=$(mktemp -d /tmp/reprise-mdwe.XXXXXX)
chmod 700 "$work"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 0.5; rm -rf "$work"' EXIT
export HOME=$work/home XDG_RUNTIME_DIR=$work/run XDG_MUSIC_DIR=$work/music
mkdir -p "$HOME" "$XDG_MUSIC_DIR" && mkdir -m 700 "$XDG_RUNTIME_DIR"
{ read -r address; read -r bus_pid; } < <(dbus-daemon --session --fork --print-address=1 --print-pid=1)
pids+=("$bus_pid")
export DBUS_SESSION_BUS_ADDRESS=$address
pulseaudio --daemonize=yes --exit-idle-time=-1 -n --load=module-native-protocol-unix \
  --load="module-null-sink sink_name=speakers rate=44100" 2>/dev/null
for _ in $(seq 100); do [ -s "$XDG_RUNTIME_DIR/pulse/pid" ] && break; sleep 0.1; done
pids+=("$(cat "$XDG_RUNTIME_DIR/pulse/pid")")
export PULSE_SERVER=unix:$XDG_RUNTIME_DIR/pulse/native
# 24-bit 48 kHz FLAC: decoding, format conversion and volume all run ORC's loops.
gst-launch-1.0 -q audiotestsrc num-buffers=$(((seconds + 20) * 48000 / 1024)) freq=440 volume=0.3 \
  ! "audio/x-raw,format=S24LE,rate=48000,channels=2" ! flacenc ! filesink location="$XDG_MUSIC_DIR/tone.flac"

ticks=$(getconf CLK_TCK)
cpu() { awk -v t="$ticks" '{ printf "%.3f", ($14 + $15) / t }' "/proc/$1/stat"; }
one_run() { # $1: mdwe or plain
  local launcher=()
  [ "$1" = mdwe ] && launcher=(python3 -c '
import ctypes, os, sys
if ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) != 0: sys.exit("PR_SET_MDWE refused")
os.execv(sys.argv[1], sys.argv[1:])' )
  "${launcher[@]}" "$service" -- "$XDG_MUSIC_DIR/tone.flac" 2>"$work/service.log" &
  local pid=$!
  pids+=("$pid")
  sleep 5
  local before; before=$(cpu "$pid")
  sleep "$seconds"
  local after; after=$(cpu "$pid")
  local orc="none"
  grep -q orcexec "/proc/$pid/maps" && orc="file mapped twice (orcexec)"
  grep -q ' rwxp 00000000 00:00 0' "/proc/$pid/maps" && orc="anonymous rwx"
  grep -qi "orc" "$work/service.log" && orc="$orc; log: $(grep -i orc "$work/service.log" | head -1)"
  gdbus call --session --dest org.mpris.MediaPlayer2.reprise --object-path /org/mpris/MediaPlayer2 \
    --method org.mpris.MediaPlayer2.Quit >/dev/null || kill "$pid"
  wait "$pid" || true
  rm -rf "$HOME/.local/state"
  awk -v a="$after" -v b="$before" -v s="$seconds" -v m="$1" -v o="$orc" \
    'BEGIN { printf "%-5s %6.3f s CPU over %d s (%.2f%%)  ORC: %s\n", m, a - b, s, (a - b) / s * 100, o }'
}
for _ in $(seq "$runs"); do one_run plain; one_run mdwe; done
