# python-mpd2 at the edges users reach (sourced by record-transcripts.sh): the tag types, the queue's version after
# adds, a move past the end, a name that climbs out of the music folder; single and repeat as "stop after this song"
# toggles set them (mpc single, ncmpcpp's y, Cantata's menu).
start python-mpd2-edges "python-mpd2 $(dpkg-query -W -f '${Version}' python3-mpd): tag types, versions, refused moves and names, single and repeat"
python_steps <<'PY'
from steps import session

client, step = session(pause=0)

step("tagtypes")
step("status")
step("add", "Björk/Début/01 Human Behaviour.ogg")
step("status")
step("add", "Miles Davis")
step("status")
step("move", 0, 40)
step("move", 40, 0)
step("move", "0:2", 40)
step("moveid", 3, 40)
step("move", "0:2", 3)
step("status")
step("add", "../etc/passwd")
step("add", "Miles Davis/../../etc")
step("status")
step("play", 1)
step("single", 1)
step("status")
step("repeat", 1)
step("status")
step("single", "oneshot")
step("status")
step("repeat", 0)
step("status")
step("single", 0)
step("status")
step("stop")
client.close()
PY
stop
