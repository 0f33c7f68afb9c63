# python-mpd2 as Home Assistant drives it (sourced by record-transcripts.sh): poll status and the current song,
# its cover, the stored playlists; play media (clear, add, play), volume, pause, next; another client's idle loop.
start python-mpd2 "python-mpd2 $(dpkg-query -W -f '${Version}' python3-mpd): Home Assistant's polling and controls, an idle loop beside"
/usr/bin/python3 - "$proxy" <<'PY'
import sys, threading, time
from mpd import MPDClient, CommandError

path = sys.argv[1]
events = []

def idle_loop():
    listener = MPDClient()
    listener.connect(path)
    while True:
        try:
            changed = listener.idle()
        except Exception:
            return
        events.append(changed)
        if "stored_playlist" in changed:
            listener.close()
            return

watcher = threading.Thread(target=idle_loop, daemon=True)
watcher.start()
time.sleep(0.5)

client = MPDClient()
client.connect(path)

def poll():
    # Home Assistant's update: status, the current song, its cover (albumart, else readpicture), the playlists.
    status = client.status()
    song = client.currentsong()
    if "file" in song:
        for command in ("albumart", "readpicture"):
            try:
                picture = getattr(client, command)(song["file"])
                if picture.get("binary"):
                    break
            except CommandError:
                pass
    client.listplaylists()
    time.sleep(0.2)
    return status, song

def step(*command):
    try:
        getattr(client, command[0])(*command[1:])
    except CommandError as error:
        print("error:", error)
    time.sleep(0.2)

client.commands()
client.outputs()
poll()
# Play media: an album folder, replacing the queue.
step("clear")
step("add", "Compilations/Summer Hits")
step("play")
poll()
step("setvol", 40)
poll()
step("pause", 1)
poll()
step("next")
poll()
step("pause", 0)
poll()
step("previous")
poll()
step("seekcur", 30)
poll()
step("random", 1)
poll()
step("random", 0)
step("repeat", 1)
poll()
step("repeat", 0)
step("stop")
poll()
step("clear")
step("add", "Björk/Début/01 Human Behaviour.ogg")
client.playlistinfo()
step("play", 0)
poll()
step("save", "Assistant")
time.sleep(0.5)
step("rm", "Assistant")
watcher.join(5)
client.close()
print(len(events), "idle events")
PY
stop
