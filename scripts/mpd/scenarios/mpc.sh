# mpc as its users drive it, with `mpc idleloop` listening throughout (sourced by record-transcripts.sh).
start mpc "mpc $(dpkg-query -W -f "${Version}" mpc): a folder added, insert while stopped, play/next/prev/seek, pause then next, modes, volume, stored playlists, search, stop then next"
export MPD_HOST="$proxy"
mpc idleloop > /dev/null & idle_pid=$!
sleep 0.5
m() { mpc "$@" || true; sleep 0.2; }
m stats
m add "Miles Davis"
m playlist
m insert "Björk/Début/02 Crying.ogg"
m playlist
m play
m current
m next
m current
m prev
m current
m seek 0:07
m status
m pause
m next
m status
m seek 50%
m status
m play 3
m random on
m repeat on
m single on
m consume on
m status
# Turned off in the order a user turning single off before repeat would (Reprise's single is its Track loop, which
# repeat 0 also ends: README's `single-repeats`).
m consume off
m single off
m random off
m repeat off
m volume 50
m volume +10
m volume
m save "Road Trip"
m lsplaylists
m clear
m load "Road Trip"
m playlist
m rm "Road Trip"
m search title blue
m find artist "Miles Davis"
m findadd album "Summer Hits"
m ls Chansons
m stop
m next
m status
m clear
m add ""
m playlist
m stats
kill "$idle_pid"; wait "$idle_pid" 2>/dev/null || true
unset MPD_HOST
stop
