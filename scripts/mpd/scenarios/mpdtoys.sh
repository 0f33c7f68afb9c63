# mpdtoys' mpstore and mpload (Audio::MPD) moving what plays through a file, as people move it between machines:
# a paused song's state, then a playing one's (sourced by record-transcripts.sh).
start mpdtoys "mpdtoys $(dpkg-query -W -f '${Version}' mpdtoys) (Audio::MPD $(dpkg-query -W -f '${Version}' libaudio-mpd-perl)): mpstore, then mpload of what it stored into a cleared queue, then mpstore again"
export MPD_HOST="$proxy"
m() { "$@" || true; sleep 0.3; }
m mpc -q add "Miles Davis"
m mpc -q add "Björk"
m mpc -q play 2
m mpc -q seek 0:01
m mpc -q pause
m mpstore > "$work/mpdtoys.state"
m mpc -q clear
m mpload < "$work/mpdtoys.state"
m mpstore
m mpc -q play
m mpstore > "$work/mpdtoys.state"
m mpc -q clear
m mpload < "$work/mpdtoys.state"
m mpstore
m mpc -q stop
