#!/usr/bin/env bash
# Part of `make package-test`, run by it in a mount namespace of its own (unshare -m, as root): starts the installed
# service by D-Bus activation on a private session bus and hears it play, with the file system as the user unit's
# sandbox leaves it — every mount read-only (ProtectSystem=strict, ProtectHome=read-only) but for the folders the unit
# makes writable — and with the kernel's deny-write-execute on the service (MemoryDenyWriteExecute=yes).
# usage: package-play.sh WORK (a fresh folder of the test's)
set -euo pipefail
work=$1
pids=()
teardown() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done; done
}
trap teardown EXIT
# On failure, what the service said (its standard error is the bus's).
fail() { echo "FAIL: $*"; [ -s "${logs:-}/bus.log" ] && sed 's/^/   service: /' "$logs/bus.log" | tail -40; exit 1; }
ok() { echo "ok: $*"; }

export HOME=$work/home XDG_RUNTIME_DIR=$work/run XDG_MUSIC_DIR=$work/music
export XDG_DATA_HOME=$HOME/.local/share XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state
export XDG_CACHE_HOME=$HOME/.cache
# Only the system's service folder: activation must find the installed file, not one under /usr/local.
export XDG_DATA_DIRS=/usr/share
mkdir -p "$HOME" "$XDG_MUSIC_DIR" "$work/logs"
# The daemons' logs on a tmpfs of their own, left writable (a mount with files open for writing cannot be made
# read-only); nothing of Reprise's is there.
logs=$work/logs
mount -t tmpfs -o size=16m,mode=0700 reprise-logs "$logs"
[ -d "$XDG_RUNTIME_DIR" ] || mkdir -m 700 "$XDG_RUNTIME_DIR"
gst-launch-1.0 -q audiotestsrc num-buffers=$((30 * 44100 / 1024)) freq=440 volume=0.3 \
  ! "audio/x-raw,rate=44100,channels=2" ! audioconvert ! vorbisenc ! oggmux ! filesink location="$XDG_MUSIC_DIR/tone.ogg"
# The sound server is the session's, outside the unit: started before the sandbox closes.
pulseaudio --daemonize=yes --exit-idle-time=-1 -n --load=module-native-protocol-unix \
  --load="module-null-sink sink_name=speakers" --log-target=stderr 2>"$logs/pulse.log"
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/pulse/native" ] && [ -s "$XDG_RUNTIME_DIR/pulse/pid" ] && break; sleep 0.1; done
pids+=("$(cat "$XDG_RUNTIME_DIR/pulse/pid")")
export PULSE_SERVER=unix:$XDG_RUNTIME_DIR/pulse/native

# The session bus, outside the unit too (its socket in /tmp), runs under deny-write-execute, so the service it
# activates does too (inherited through exec).
{ read -r address; read -r bus_pid; } < <(python3 -c '
import ctypes, os, sys
if ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) != 0: sys.exit("PR_SET_MDWE refused")
os.execvp("dbus-daemon", ["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"])' 2>"$logs/bus.log")
pids+=("$bus_pid")
export DBUS_SESSION_BUS_ADDRESS=$address

# The unit's writable folders (StateDirectory, ConfigurationDirectory, ExecStartPre's mkdir, ReadWritePaths), made
# as systemd makes them; then every mount read-only but /dev, /proc and /sys, and those folders bound writable again.
writable=("$XDG_STATE_HOME/reprise" "$XDG_CONFIG_HOME/reprise" "$XDG_DATA_HOME/reprise" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR")
mkdir -p "${writable[@]}"
awk '{ print $5 }' /proc/self/mountinfo | grep -vE '^/(dev|proc|sys)(/|$)' | grep -vxF "$logs" | sort -u \
  | while read -r mountpoint; do mount -o remount,bind,ro "$mountpoint" 2>/dev/null || true; done
touch /usr/.reprise-sandbox-check 2>/dev/null && fail "the file system is still writable"
touch "$HOME/.reprise-sandbox-check" 2>/dev/null && fail "HOME is still writable"
for dir in "${writable[@]}"; do mount --bind "$dir" "$dir" && mount -o remount,bind,rw "$dir"; done
for dir in "${writable[@]}"; do touch "$dir/.reprise-sandbox-check" && rm "$dir/.reprise-sandbox-check" || fail "$dir is not writable"; done
ok "sandbox: every mount read-only but ${writable[*]#"$work/"}"

gdbus call --session --dest org.mpris.MediaPlayer2.reprise --object-path /org/mpris/MediaPlayer2 \
  --method org.freedesktop.DBus.Peer.Ping >/dev/null || fail "activating org.mpris.MediaPlayer2.reprise"
service_pid=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
  --method org.freedesktop.DBus.GetConnectionUnixProcessID org.mpris.MediaPlayer2.reprise | sed 's/.*uint32 \([0-9]*\).*/\1/')
pids=("$service_pid" "${pids[@]}")
[ "$(readlink "/proc/$service_pid/exe")" = /usr/libexec/reprised ] \
  || fail "the activated service is '$(readlink "/proc/$service_pid/exe")', not /usr/libexec/reprised"
ok "the first call started /usr/libexec/reprised by D-Bus activation (pid $service_pid)"

/usr/bin/reprise "$XDG_MUSIC_DIR/tone.ogg" || fail "reprise FILE"
for _ in $(seq 100); do
  [ "$(/usr/bin/reprise status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("status",""))' 2>/dev/null)" = Playing ] && break
  sleep 0.1
done
/usr/bin/reprise status || true
parec --device=speakers.monitor --format=s16le --rate=44100 --channels=1 --raw > "$logs/heard.raw" &
parec_pid=$!
pids+=("$parec_pid")
sleep 3
kill "$parec_pid"; wait "$parec_pid" 2>/dev/null || true
python3 - "$logs/heard.raw" <<'PY' || fail "the tone was not heard at the null sink"
import array, math, sys
samples = array.array("h", open(sys.argv[1], "rb").read())
samples = samples[len(samples) // 4:]  # past the start of playback
rms = math.sqrt(sum(s * s for s in samples) / max(len(samples), 1))
crossings = sum(1 for a, b in zip(samples, samples[1:]) if (a < 0) != (b < 0))
frequency = crossings / 2 / (len(samples) / 44100) if samples else 0
print(f"   heard: rms {rms:.0f}, {frequency:.0f} Hz over {len(samples) / 44100:.2f} s")
sys.exit(0 if rms > 1000 and abs(frequency - 440) < 20 else 1)
PY
ok "the installed service plays in the sandbox: a 440 Hz tone at the sink's monitor"
# What it wrote, all inside the writable folders: its state, the library index, the MPD socket.
[ -S "$XDG_RUNTIME_DIR/reprise/mpd.socket" ] || fail "no MPD socket in the runtime folder"
gdbus call --session --dest org.mpris.MediaPlayer2.reprise --object-path /org/mpris/MediaPlayer2 \
  --method org.mpris.MediaPlayer2.Quit >/dev/null
for _ in $(seq 100); do kill -0 "$service_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$service_pid" 2>/dev/null && fail "the service did not quit"
[ -s "$XDG_STATE_HOME/reprise/state" ] || fail "no saved state in $XDG_STATE_HOME/reprise"
ok "Quit ends the service; its state saved in the state folder, its MPD socket was in the runtime folder"
if grep -i "read-only file system\|EROFS" "$logs/bus.log"; then fail "the service tried to write outside the unit's folders"; fi
ok "the service wrote nothing outside the unit's folders (no read-only file system error in its log)"
if grep "tags: cannot start" "$logs/bus.log"; then fail "the service could not start its tag reader"; fi
ok "the service started its tag reader, /usr/libexec/reprise-tag-reader, for the file it indexed and played"
[ -s "$XDG_DATA_HOME/reprise/library.db" ] || fail "no library index in $XDG_DATA_HOME/reprise"
ls "$XDG_CACHE_HOME"/gstreamer-1.0/registry.*.bin >/dev/null 2>&1 || fail "GStreamer could not keep its registry in $XDG_CACHE_HOME"
ok "the library's index is in the data folder, GStreamer's registry in the cache"
