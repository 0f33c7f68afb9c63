# python-mpd2 asking for songs' AcoustID fingerprints (sourced by record-transcripts.sh): getfingerprint, as a tagger
# does before it looks a song up — songs, a file no server decodes, a folder, notes, a name that does not exist.
# Debian's mpd 0.23 often never answers a getfingerprint (MPD issue 2286): each is asked on a connection of its own,
# and asked again on a new one when no answer came within five seconds (replay.py's --unanswered-getfingerprint).
start python-mpd2-fingerprint "python-mpd2 $(dpkg-query -W -f '${Version}' python3-mpd): getfingerprint"
/usr/bin/python3 - "$proxy" <<'PY'
import socket
import sys
from mpd import CommandError, MPDClient

MPDClient.add_command("getfingerprint", MPDClient._parse_object)
for name in ["Björk/Début/01 Human Behaviour.ogg", "Compilations/Summer Hits/2 Enola Gay.ogg", "Chansons/broken.ogg",
             "Björk/Début", "Miles Davis/Kind of Blue/notes.txt", "Björk/Début/99 Missing.ogg"]:
    for attempt in range(40):
        client = MPDClient()
        client.timeout = 5
        client.connect(sys.argv[1])
        try:
            print(name, client.getfingerprint(name))
            client.close()
            break
        except CommandError as error:
            print(name, "error:", error)
            client.close()
            break
        except (socket.timeout, TimeoutError):
            print(name, "no answer; asking again")
            client._sock.close()
    else:
        print(name, "never answered")
PY
stop
