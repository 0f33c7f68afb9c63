# python-mpd2 stopping the server (sourced by record-transcripts.sh): `kill`, as a client's "quit the server" does,
# while another connection idles; the server answers nothing and stops.
start python-mpd2-kill "python-mpd2 $(dpkg-query -W -f '${Version}' python3-mpd): kill"
MPD_HOST="$proxy" mpc idleloop > /dev/null & idling=$!
sleep 0.5
python_steps <<'PY'
from steps import session

client, step = session()
step("add", "Björk/Début/01 Human Behaviour.ogg")
step("status")
try:
    client.kill()
except Exception as error:
    print("kill:", type(error).__name__, error)
PY
wait "$mpd_pid" 2>/dev/null || true
wait "$idling" 2>/dev/null || true
stop
