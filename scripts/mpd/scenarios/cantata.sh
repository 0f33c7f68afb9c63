# Cantata under Xvfb as its users drive it, by the pointer (sourced by record-transcripts.sh): it loads the library
# (covers by `albumart`, its music folder not readable, as on another machine), an artist opened, an album added to
# the queue, played, the next song. The clicks are CantataTests.clicks'.
start cantata "Cantata $(dpkg-query -W -f '${Version}' cantata) under Xvfb: library with covers, an album queued, play, next"
home="$work/cantata-home"
mkdir -p "$home/.config/cantata"
printf '[General]\nversion=2.5.0\nmainWindowSize=@Size(1000 700)\n\n[Connection]\nhost=%s\nport=6600\ndir=/nonexistent/\npasswd=\n' \
    "$proxy" > "$home/.config/cantata/cantata.conf"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3> "$work/display" 2>/dev/null & xvfb=$!
pids+=("$xvfb")
until [ -s "$work/display" ]; do sleep 0.1; done
display=":$(cat "$work/display")"
HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" DISPLAY="$display" QT_QPA_PLATFORM=xcb \
    dbus-run-session -- cantata > "$work/cantata.log" 2>&1 & cantata=$!
pids+=("$cantata")
sleep 10
x() { DISPLAY="$display" xdotool "$@"; sleep 1; }
x mousemove 71 77 click 1      # open the first artist
x mousemove 180 113 click 1    # select its album
x mousemove 342 686 click 1    # add to the queue
x mousemove 55 28 click 1      # play
sleep 1
x mousemove 90 28 click 1      # next
sleep 1
x key ctrl+q
sleep 1
kill "$cantata" "$xvfb" 2>/dev/null || true
stop
