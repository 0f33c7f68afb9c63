#!/bin/bash
# Regenerates scripts/hot-functions.order: the functions of reprised that run while it starts with a file to play (as `reprise FILE`,
# on the state a previous run saved), opens one over MPRIS and
# answers MPRIS, playerctl and an MPD client, as recorded by callgrind. The release link places them first in the
# executable (lld --symbol-ordering-file), so the pages a playing service touches are few and together instead of
# spread over all of its code (fault-around maps 64 KiB around every page touched). A name the code no longer has is
# skipped at link time: an old list costs only pages. Needs valgrind and a release build (make binaries).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.build/release/reprised
[ -x "$binary" ] || { echo "build first: make binaries" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }

work=$(mktemp -d /tmp/reprise-hot.XXXXXX)
chmod 700 "$work"
export XDG_RUNTIME_DIR=$work HOME=$work/home
unset DBUS_SESSION_BUS_ADDRESS PULSE_SERVER
mkdir -p "$HOME"
source scripts/private-session.sh
service_pid=""
trap 'if [ -n "$service_pid" ]; then kill "$service_pid" 2>/dev/null || true; fi; cleanup_private_session; rm -rf "$work"' EXIT

# valgrind 3.19 cannot read the toolchain's DWARF 5; the symbols are all it needs. The malloc settings (read from
# MallocTuning, where the service keeps them) are given here so that the service does not exec itself again (under
# valgrind, the executable is valgrind's).
cp "$binary" "$work/reprised" && strip --strip-debug "$work/reprised"
# The tag reader beside it, as installed: without it the service reads tags through GStreamer, which users' services
# do not, and the functions that take the reader's answers would be missing from the list.
cp "$(dirname "$binary")/reprise-tag-reader" "$work/"
gst-launch-1.0 -q audiotestsrc num-buffers=1500 ! audioconvert ! vorbisenc ! oggmux ! filesink location="$work/tone.ogg"
tuning=Sources/Wrappers/LoopKit/MallocTuning.swift
tunables=$(sed -n 's/.*static let tunables = "\(.*\)"/\1/p' "$tuning")
slice=$(sed -n 's/.*static let sliceSetting = "\(.*\)"/\1/p' "$tuning")
[ -n "$tunables" ] && [ -n "$slice" ] || { echo "no malloc settings found in $tuning" >&2; exit 1; }
mpris=(--session --dest org.mpris.MediaPlayer2.reprise --object-path /org/mpris/MediaPlayer2)
# Users start it again on the state its last run saved (the queue, the position): a first run, not recorded, leaves
# that state, so that restoring it is recorded as hot too (without it, 0.75 MiB more of the text was resident).
GLIBC_TUNABLES=$tunables G_SLICE=$slice "$work/reprised" -- "$work/tone.ogg" >"$work/first-run.log" 2>&1 &
service_pid=$!
for _ in $(seq 120); do gdbus introspect "${mpris[@]}" >/dev/null 2>&1 && break; sleep 0.25; done
sleep 2
kill -TERM "$service_pid"
wait "$service_pid" || true
service_pid=""
[ -s "$HOME/.local/state/reprise/state" ] || { echo "the first run left no state: $(cat "$work/first-run.log")" >&2; exit 1; }
GLIBC_TUNABLES=$tunables G_SLICE=$slice valgrind --tool=callgrind --demangle=no \
  --dump-instr=no --callgrind-out-file="$work/callgrind.out" "$work/reprised" -- "$work/tone.ogg" 2>"$work/valgrind.log" &
service_pid=$!
for _ in $(seq 120); do gdbus introspect "${mpris[@]}" >/dev/null 2>&1 && break; sleep 0.5; done
gdbus call "${mpris[@]}" --method org.mpris.MediaPlayer2.Player.OpenUri "file://$work/tone.ogg" >/dev/null
sleep 6
for _ in 1 2; do
  playerctl -p reprise play-pause; sleep 1
  playerctl -p reprise metadata >/dev/null
  gdbus call "${mpris[@]}" --method org.freedesktop.DBus.Properties.GetAll org.mpris.MediaPlayer2.Player >/dev/null
done
playerctl -p reprise play
python3 - "$XDG_RUNTIME_DIR/reprise/mpd.socket" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
f.readline()
for command in [b"status", b"currentsong", b"pause 1", b"pause 0", b"playlistinfo", b"outputs", b"idle"]:
    f.write(command + b"\n"); f.flush()
    if command == b"idle":
        time.sleep(0.5); f.write(b"noidle\n"); f.flush()
    while not f.readline().startswith((b"OK", b"ACK")): pass
PY
sleep 4
kill -TERM "$service_pid"
wait "$service_pid" || true
service_pid=""

# Functions of the executable (callgrind's "ob=" is the object of the "fn=" lines after it); recursion suffixes off.
python3 - "$work/callgrind.out" "$work/reprised" > scripts/hot-functions.order <<'PY'
import re, sys
names, objects, current, hot = {}, {}, None, set()
for line in open(sys.argv[1], errors="replace"):
    match = re.match(r"^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if not match:
        continue
    called, kind, number, name = match.groups()
    table = objects if kind == "ob" else names
    if name:
        table[number] = name
    if kind == "ob" and not called:
        current = objects[number]
    elif kind == "fn" and current == sys.argv[2]:
        hot.add(re.sub(r"'\d+$", "", names[number]))
print("\n".join(sorted(hot)))
PY
echo "$(wc -l < scripts/hot-functions.order) functions in scripts/hot-functions.order"
