#!/usr/bin/env bash
# Makes the music folder the MPD transcripts were recorded on (tests/mpd-transcripts/), in DIR: what users'
# libraries hold — album folders with cover files, an album on two discs, a compilation ("Various Artists"), a
# Latin-1 file name, files neither server can read. Every song is a generated two-minute tone (long enough that
# nothing ends while a transcript is replayed). Same arguments, same folder: the transcripts depend on it.
set -euo pipefail
dir="${1:?usage: mpd-test-library.sh DIR}"
mkdir -p "$dir"

# song PATH TITLE ARTIST ALBUM TRACK GENRE DATE [ALBUMARTIST] [DISC]
song() {
    local path="$dir/$1" tags
    mkdir -p "$(dirname "$path")"
    tags="title=(string)\"$2\",artist=(string)\"$3\",album=(string)\"$4\",track-number=(uint)$5,genre=(string)\"$6\""
    tags+=",datetime=(datetime)$7"
    [ -n "${8:-}" ] && tags+=",album-artist=(string)\"$8\""
    [ -n "${9:-}" ] && tags+=",album-disc-number=(uint)$9"
    gst-launch-1.0 -q audiotestsrc num-buffers=$((120 * 22050 / 1024)) freq=$((200 + 30 * $5)) volume=0.05 \
        ! audio/x-raw,rate=22050,channels=1 ! taginject tags="\"$tags\"" ! audioconvert ! vorbisenc quality=0 \
        ! oggmux ! filesink location="$path"
}

cover() {
    gst-launch-1.0 -q videotestsrc num-buffers=1 pattern="$2" ! video/x-raw,width=64,height=64 ! jpegenc \
        ! filesink location="$dir/$1/cover.jpg"
}

song "Björk/Début/01 Human Behaviour.ogg" "Human Behaviour" "Björk" "Début" 1 Pop 1993
song "Björk/Début/02 Crying.ogg" "Crying" "Björk" "Début" 2 Pop 1993
song "Björk/Début/03 Venus as a Boy.ogg" "Venus as a Boy" "Björk" "Début" 3 Pop 1993
cover "Björk/Début" smpte
song "Miles Davis/Kind of Blue/1 So What.ogg" "So What" "Miles Davis" "Kind of Blue" 1 Jazz 1959
song "Miles Davis/Kind of Blue/2 Freddie Freeloader.ogg" "Freddie Freeloader" "Miles Davis" "Kind of Blue" 2 Jazz 1959
cover "Miles Davis/Kind of Blue" ball
song "Mahler/Symphony No. 2/CD1/1 Allegro maestoso.ogg" "Allegro maestoso" "Mahler" "Symphony No. 2" 1 Classical 1895 "" 1
song "Mahler/Symphony No. 2/CD2/1 Urlicht.ogg" "Urlicht" "Mahler" "Symphony No. 2" 1 Classical 1895 "" 2
song "Mahler/Symphony No. 2/CD2/2 Im Tempo des Scherzos.ogg" "Im Tempo des Scherzos" "Mahler" "Symphony No. 2" 2 Classical 1895 "" 2
song "Compilations/Summer Hits/1 Blue Monday.ogg" "Blue Monday" "New Order" "Summer Hits" 1 Synth-pop 1983 "Various Artists"
song "Compilations/Summer Hits/2 Enola Gay.ogg" "Enola Gay" "OMD" "Summer Hits" 2 Synth-pop 1980 "Various Artists"
cover "Compilations/Summer Hits" snow
# A Latin-1 name (not UTF-8): "Chansons/Café.ogg".
mkdir -p "$dir/Chansons"
song "Chansons/tmp.ogg" "Café" "Édith" "Chansons" 1 Chanson 1950
mv "$dir/Chansons/tmp.ogg" "$dir/Chansons/$(printf 'Caf\xe9.ogg')"
# What no server reads: a file that only looks like audio, and notes.
printf 'not a song at all\n%.0s' {1..64} > "$dir/Chansons/broken.ogg"
printf 'liner notes\n' > "$dir/Miles Davis/Kind of Blue/notes.txt"
