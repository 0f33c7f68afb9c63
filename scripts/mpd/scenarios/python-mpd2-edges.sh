# python-mpd2 at the edges users reach (sourced by record-transcripts.sh): the tag types, the queue's version after
# adds, a move past the end, a name that climbs out of the music folder.
start python-mpd2-edges "python-mpd2 $(dpkg-query -W -f '${Version}' python3-mpd): tag types, versions, refused moves and names"
/usr/bin/python3 - "$proxy" <<'PY'
import sys, time
from mpd import MPDClient, CommandError

client = MPDClient()
client.connect(sys.argv[1])

def step(*command):
    try:
        print(command, getattr(client, command[0])(*command[1:]))
    except CommandError as error:
        print("error:", error)

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
client.close()
PY
stop
