# python-mpd2 reading a file's own tags (sourced by record-transcripts.sh): readcomments, as a tag browser or a
# client's "file info" shows them — a song, a compilation's, a file no server reads, a folder, names that do not exist
# or climb out of the music folder.
start python-mpd2-comments "python-mpd2 $(dpkg-query -W -f '${Version}' python3-mpd): readcomments"
python_steps <<'PY'
from steps import session

client, step = session(pause=0)
step("readcomments", "Björk/Début/01 Human Behaviour.ogg")
step("readcomments", "Compilations/Summer Hits/2 Enola Gay.ogg")
step("readcomments", "Mahler/Symphony No. 2/CD2/1 Urlicht.ogg")
step("readcomments", "Chansons/broken.ogg")
step("readcomments", "Björk/Début")
step("readcomments", "Björk/Début/99 Missing.ogg")
step("readcomments", "../etc/passwd")
client.close()
PY
stop
