# ncmpcpp in tmux as its users drive it, by its keys (sourced by record-transcripts.sh): the browser (a folder added),
# the queue (play, delete, next, previous, repeat, random, volume), saving the queue, the playlist editor, the media
# library (an artist's song added and played), the search engine.
start ncmpcpp "ncmpcpp $(dpkg-query -W -f '${Version}' ncmpcpp) in tmux: browse and add albums, play, next, pause, modes, volume, save, playlist editor, media library, search"
printf 'mpd_host = "%s"\n' "$proxy" > "$work/ncmpcpp.conf"
tmux -S "$work/tmux" -f /dev/null new-session -d -x 160 -y 45 "ncmpcpp -c $work/ncmpcpp.conf"
k() { tmux -S "$work/tmux" send-keys "$@"; sleep 0.7; }
sleep 2
k 2; k Down; k Space                      # the browser: a folder added (the second, Chansons/)
k Up; k Enter; k Down; k Down; k Enter; k Down; k Space   # into a folder and about in it
k 1; k Enter                              # the queue: play what is selected
k '>'; k p; k '>'; k '<'; k r; k z; k z; k r; k '+'; k '-'
k S; tmux -S "$work/tmux" send-keys -l "Mixed"; sleep 0.5; k Enter   # save the queue as "Mixed"
k 5                                       # the playlist editor
k 4; k Down; k Enter                      # the media library: the second artist's songs added
k 3; k Enter; tmux -S "$work/tmux" send-keys -l "blue"; sleep 0.3; k Enter
for _ in $(seq 13); do tmux -S "$work/tmux" send-keys Down; done; sleep 0.5; k Enter   # Search
k q
sleep 0.5
tmux -S "$work/tmux" kill-server 2>/dev/null || true
stop
