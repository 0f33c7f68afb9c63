#!/usr/bin/env bash
# Records what real MPD clients send to Debian's mpd, and what it answers, while they do what their users do:
# writes Tests/IntegrationTests/MPDTranscripts/*.transcript (MPDTranscriptTests replays each against mpd and
# Reprise). Each client's session runs against a fresh mpd (empty queue, no stored playlists) on the music folder
# scripts/mpd-test-library.sh makes, through record.py. Needs mpd, mpc, python3-mpd, ncmpcpp and tmux;
# cantata and Xvfb, mpdscribble, mpdris2 and playerctl, mpdtoys for their scenarios.
#     scripts/mpd/record-transcripts.sh [SCENARIO…]      (default: all)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/Tests/IntegrationTests/MPDTranscripts"
work="$(mktemp -d /tmp/mpd-record.XXXXXX)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; sleep 0.3; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$out"
"$root/scripts/mpd-test-library.sh" "$work/Music" 2>/dev/null
proxy="$work/proxy.socket"

# Starts a fresh mpd (its database kept from the first start) and the recording proxy for scenario $1.
start() {
    rm -rf "$work/mpd/state" "$work/mpd/playlists" && mkdir -p "$work/mpd/playlists"
    "$here/mpd-config.sh" "$work/Music" "$work/mpd" > "$work/mpd/mpd.conf"
    mpd --no-daemon --stderr "$work/mpd/mpd.conf" 2> "$work/mpd/log" & mpd_pid=$!
    pids+=("$mpd_pid")
    until mpc -h "$work/mpd/socket" stats 2>/dev/null | grep -q 'Songs: *11'; do sleep 0.2; done
    python3 "$here/record.py" "$proxy" "$work/mpd/socket" "$out/$1.transcript" "$2" & proxy_pid=$!
    pids+=("$proxy_pid")
    until [ -S "$proxy" ]; do sleep 0.1; done
}

# Runs the python-mpd2 steps on standard input against the proxy, with steps.py importable (`from steps import session`).
python_steps() {
    PYTHONPATH="$here/scenarios" /usr/bin/python3 - "$proxy"
}

stop() {
    sleep 0.5
    kill "$proxy_pid" "$mpd_pid" 2>/dev/null || true; wait "$proxy_pid" "$mpd_pid" 2>/dev/null || true
    rm -f "$proxy"
}

mkdir -p "$work/mpd"
for scenario in "${@:-$(cd "$here/scenarios" && ls -- *.sh | sed "s/\.sh$//")}"; do
    for one in $scenario; do
        echo "recording $one"
        # shellcheck source=/dev/null
        source "$here/scenarios/$one.sh"
    done
done
