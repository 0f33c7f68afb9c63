# mpd-sima with its Genre plugin (sourced by record-transcripts.sh): a Pop song plays alone in the queue; mpd-sima
# reads what plays, finds the artists of the same genre with a filter and queues one of their tracks.
start mpd-sima "mpd-sima $(dpkg-query -W -f '${Version}' mpd-sima) (python-musicpd $(dpkg-query -W -f '${Version}' python3-musicpd)): the Genre plugin queueing after a Pop song"
export MPD_HOST="$proxy"
mkdir -p "$work/sima"
cat > "$work/sima/sima.cfg" <<CFG
[MPD]
host = $proxy
[sima]
internal = Genre
queue_length = 1
var_dir = $work/sima
history_duration = 8
repeat_disable_queue = True
single_disable_queue = True
[genre]
queue_mode = track
track_to_add = 1
CFG
mpc -q clear; mpc -q add "Björk/Début/02 Crying.ogg"; mpc -q play; sleep 0.5
mpd-sima --config "$work/sima/sima.cfg" --log-level info > "$work/sima/log" 2>&1 & sima_pid=$!
for _ in $(seq 1 40); do [ "$(mpc playlist | wc -l)" -gt 1 ] && break; sleep 0.25; done
sleep 1
kill "$sima_pid"; wait "$sima_pid" 2>/dev/null || true
cat "$work/sima/log" >&2
mpc -q stop
