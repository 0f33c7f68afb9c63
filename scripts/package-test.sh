#!/usr/bin/env bash
# `make package-test`: checks the Debian package `make deb` built, then installs it on this machine (as root, with
# apt), starts the installed service by D-Bus activation on a private session bus, plays a tone it hears at a private
# PulseAudio's null sink, and purges the package, checking nothing of it is left.
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
pids=()
teardown() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done; done
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
for file in /usr/bin/reprise /usr/libexec/reprised /usr/lib/systemd/user/reprise.service \
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
desktop-file-validate /usr/share/applications/reprise.desktop || fail "desktop-file-validate reprise.desktop"
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

echo "== activation and playback"
export HOME=$work/home XDG_DATA_HOME=$work/home/.local/share XDG_CONFIG_HOME=$work/home/.config
export XDG_STATE_HOME=$work/home/.local/state XDG_CACHE_HOME=$work/home/.cache XDG_MUSIC_DIR=$work/music
# Only the system's service folder: activation must find the installed file, not one under /usr/local.
export XDG_DATA_DIRS=/usr/share
mkdir -p "$HOME" "$XDG_MUSIC_DIR"
{ read -r address; read -r bus_pid; } < <(dbus-daemon --session --fork --print-address=1 --print-pid=1)
pids+=("$bus_pid")
export DBUS_SESSION_BUS_ADDRESS=$address
pulseaudio --daemonize=yes --exit-idle-time=-1 -n --load=module-native-protocol-unix \
  --load="module-null-sink sink_name=speakers" --log-target=stderr 2>"$work/pulse.log"
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/pulse/native" ] && [ -s "$XDG_RUNTIME_DIR/pulse/pid" ] && break; sleep 0.1; done
pids+=("$(cat "$XDG_RUNTIME_DIR/pulse/pid")")
export PULSE_SERVER=unix:$XDG_RUNTIME_DIR/pulse/native
gst-launch-1.0 -q audiotestsrc num-buffers=$((30 * 44100 / 1024)) freq=440 volume=0.3 \
  ! "audio/x-raw,rate=44100,channels=2" ! audioconvert ! vorbisenc ! oggmux ! filesink location="$XDG_MUSIC_DIR/tone.ogg"

gdbus call --session --dest org.mpris.MediaPlayer2.reprise --object-path /org/mpris/MediaPlayer2 \
  --method org.freedesktop.DBus.Peer.Ping >/dev/null || fail "activating org.mpris.MediaPlayer2.reprise"
service_pid=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
  --method org.freedesktop.DBus.GetConnectionUnixProcessID org.mpris.MediaPlayer2.reprise | sed 's/.*uint32 \([0-9]*\).*/\1/')
pids=("$service_pid" "${pids[@]}")
[ "$(readlink "/proc/$service_pid/exe")" = /usr/libexec/reprised ] \
  || fail "the activated service is $(readlink "/proc/$service_pid/exe"), not /usr/libexec/reprised"
ok "the first call started /usr/libexec/reprised by D-Bus activation (pid $service_pid)"

/usr/bin/reprise "$XDG_MUSIC_DIR/tone.ogg" || fail "reprise FILE"
for _ in $(seq 100); do [ "$(/usr/bin/reprise status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("status",""))' 2>/dev/null)" = Playing ] && break; sleep 0.1; done
/usr/bin/reprise status || true
parec --device=speakers.monitor --format=s16le --rate=44100 --channels=1 --raw > "$work/heard.raw" &
parec_pid=$!
pids+=("$parec_pid")
sleep 2
kill "$parec_pid"; wait "$parec_pid" 2>/dev/null || true
python3 - "$work/heard.raw" <<'EOF' || fail "the tone was not heard at the null sink"
import array, math, sys
samples = array.array("h", open(sys.argv[1], "rb").read())
samples = samples[len(samples) // 4:]  # past the start of playback
rms = math.sqrt(sum(s * s for s in samples) / max(len(samples), 1))
crossings = sum(1 for a, b in zip(samples, samples[1:]) if (a < 0) != (b < 0))
frequency = crossings / 2 / (len(samples) / 44100) if samples else 0
print(f"   heard: rms {rms:.0f}, {frequency:.0f} Hz over {len(samples) / 44100:.2f} s")
sys.exit(0 if rms > 1000 and abs(frequency - 440) < 20 else 1)
EOF
ok "the installed service plays: a 440 Hz tone at the sink's monitor"
gdbus call --session --dest org.mpris.MediaPlayer2.reprise --object-path /org/mpris/MediaPlayer2 \
  --method org.mpris.MediaPlayer2.Quit >/dev/null
for _ in $(seq 100); do kill -0 "$service_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$service_pid" 2>/dev/null && fail "the service did not quit"
ok "Quit ends the service"

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
