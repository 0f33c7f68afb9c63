# mpDris2 as its users run it: the MPD server on the desktop's bus as an MPRIS player, driven by playerctl as a
# panel's buttons and media keys drive it — play, pause, next, previous, seek, volume, shuffle, loop — while mpc
# queues an album (sourced by record-transcripts.sh). Its own private session bus; no notifications.
start mpdris2 "mpDris2 $(dpkg-query -W -f '${Version}' mpdris2) with playerctl $(dpkg-query -W -f '${Version}' playerctl): MPRIS buttons on an album"
MPD_HOST="$proxy" mpc add "Miles Davis" > /dev/null
MPD_HOST="$proxy" mpc add "Björk/Début" > /dev/null
dbus-run-session -- bash -c '
    mpDris2 --host "$1" > "$2/mpdris2.log" 2>&1 & mpdris=$!
    until playerctl -p mpd status > /dev/null 2>&1; do sleep 0.2; done
    p() { playerctl -p mpd "$@" || true; sleep 0.5; }
    p play
    p metadata --format "{{artist}} - {{title}}"
    p next
    p metadata --format "{{artist}} - {{title}}"
    p pause
    p next
    p status
    p previous
    p position 3
    p position
    p volume 0.4
    p volume
    p shuffle On
    p loop Playlist
    p loop Track
    p loop None
    p shuffle Off
    p play-pause
    p stop
    kill "$mpdris"; wait "$mpdris" 2>/dev/null
' scenario "$proxy" "$work"
stop
