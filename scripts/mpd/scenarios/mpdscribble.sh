# mpdscribble as its users run it: connected throughout, "now playing" and scrobbles written to a file (its `file`
# scrobbler: no network), while mpc plays an album, moves on, pauses, seeks and sends mpdscribble's "love" message
# (sourced by record-transcripts.sh).
start mpdscribble "mpdscribble $(dpkg-query -W -f '${Version}' mpdscribble) with mpc $(dpkg-query -W -f '${Version}' mpc): an album played, next, pause, seek, love, stop"
printf 'host = %s\nverbose = 2\nlog = %s\n\n[file]\nfile = %s\n' "$proxy" "$work/mpdscribble.log" "$work/scrobbles" \
    > "$work/mpdscribble.conf"
mpdscribble --no-daemon --conf "$work/mpdscribble.conf" & scribble=$!
pids+=("$scribble")
sleep 1
export MPD_HOST="$proxy"
m() { mpc "$@" > /dev/null || true; sleep 0.5; }
m add "Björk/Début"
m play
m next
m pause
m play
m seek 0:02
m sendmessage mpdscribble love
m next
m prev
m stop
sleep 0.5
kill "$scribble"; wait "$scribble" 2>/dev/null || true
unset MPD_HOST
stop
