#!/usr/bin/env bash
# The reference mpd's config for MUSIC_FOLDER with its files under DIR: a socket, a null output with a software
# mixer (so `volume` is reported, as Reprise reports it), ReplayGain `auto` (Reprise's default), no network. Used by
# the recorder and the replaying test.
set -euo pipefail
cat <<CONF
music_directory "$1"
db_file "$2/database"
state_file "$2/state"
playlist_directory "$2/playlists"
bind_to_address "$2/socket"
zeroconf_enabled "no"
replaygain "auto"
audio_output {
    type "null"
    name "null"
    mixer_type "software"
}
CONF
