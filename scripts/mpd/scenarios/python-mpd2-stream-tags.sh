# python-mpd2 naming a stream in the queue (sourced by record-transcripts.sh): addtagid and cleartagid on a radio's
# entry as a client names it (a title, two hosts, a genre), refused for a file and for what does not exist; the
# outputs' attributes (mpc outputset), which neither server's outputs have. Another connection idles meanwhile.
start python-mpd2-stream-tags "python-mpd2 $(dpkg-query -W -f '${Version}' python3-mpd) and mpc $(dpkg-query -W -f '${Version}' mpc): a stream's tags, output attributes"
MPD_HOST="$proxy" mpc idleloop playlist output > /dev/null & idling=$!
sleep 0.5
python_steps <<'PY'
from steps import session

client, step = session()

step("add", "Björk/Début/01 Human Behaviour.ogg")
step("addid", "http://127.0.0.1:9/morning.ogg")
step("status")
step("addtagid", 1, "Title", "Not a stream")
step("addtagid", 2, "Title", "Morning Radio")
step("addtagid", 2, "artist", "Host One")
step("addtagid", 2, "Artist", "Host Two")
step("addtagid", 2, "Genre", "Talk")
step("addtagid", 2, "Name", "Radio Loopback")
step("addtagid", 2, "Tempo", "120")
step("addtagid", 9, "Title", "Nobody")
step("playlistid", 2)
step("status")
step("cleartagid", 2, "Artist")
step("playlistid", 2)
step("cleartagid", 2, "Bogus")
step("cleartagid", 1)
step("cleartagid", 2)
step("playlistid", 2)
step("status")
client.close()
PY
# mpc's outputset (python-mpd2 3.0 has none): an attribute, an illegal name, an output that does not exist.
export MPD_HOST="$proxy"
mpc outputset 1 dop=1 || true
mpc outputset 1 "bad name!=1" || true
mpc outputset 8 dop=1 || true
unset MPD_HOST
kill "$idling"; wait "$idling" 2>/dev/null || true
stop
