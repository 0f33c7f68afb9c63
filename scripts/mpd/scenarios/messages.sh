# Client-to-client messages as mpdscribble's "love" and mpd-sima use them, through mpc (waitmessage, sendmessage,
# channels) and python-mpd2 (subscribe, readmessages, partitions) (sourced by record-transcripts.sh).
start messages "mpc $(dpkg-query -W -f '${Version}' mpc) and python-mpd2 $(dpkg-query -W -f '${Version}' python3-mpd): channels, messages, partitions"
export MPD_HOST="$proxy"
mpc waitmessage mpdscribble > /dev/null & waiting=$!
sleep 0.5
python_steps <<'PY'
from steps import session
client, step = session()
step("channels")
step("subscribe", "mpd-sima")
step("subscribe", "mpd-sima")
step("subscribe", "bad channel")
step("channels")
step("readmessages")
step("sendmessage", "mpdscribble", "love")
step("sendmessage", "mpd-sima", "hello")
step("sendmessage", "nobody", "x")
step("readmessages")
step("readmessages")
step("unsubscribe", "mpd-sima")
step("unsubscribe", "mpd-sima")
step("channels")
step("listpartitions")
step("partition", "default")
step("partition", "elsewhere")
client.close()
PY
wait "$waiting" || true
mpc channels || true
unset MPD_HOST
stop
