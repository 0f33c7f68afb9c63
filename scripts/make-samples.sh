#!/usr/bin/env bash
# Generates Reprise's sample media (tagged Ogg Vorbis, FLAC and Opus tones) into DIR with GStreamer.
set -euo pipefail
dir=${1:?usage: make-samples.sh DIR}
mkdir -p "$dir"
tone() { # file seconds frequency encoder-chain tags
  local file=$1 seconds=$2 freq=$3 chain=$4 tags=$5
  [ -s "$dir/$file" ] && return 0
  local buffers=$(( seconds * 44100 / 1024 ))
  # shellcheck disable=SC2086
  gst-launch-1.0 -q audiotestsrc num-buffers=$buffers freq=$freq volume=0.3 \
    ! "audio/x-raw,rate=44100,channels=2" ! taginject "tags=\"$tags\"" ! audioconvert ! $chain \
    ! filesink location="$dir/$file.part"
  mv "$dir/$file.part" "$dir/$file"
}
tone "01 Morning.ogg" 6 440 "vorbisenc ! oggmux" \
  'title=\"Morning\",artist=\"Reprise Ensemble\",album=\"Sample Tones\",album-artist=\"Reprise Ensemble\",track-number=(uint)1,album-disc-number=(uint)1,genre=\"Test\"'
tone "02 Noon.flac" 6 554 "flacenc" \
  'title=\"Noon\",artist=\"Reprise Ensemble\",album=\"Sample Tones\",album-artist=\"Reprise Ensemble\",track-number=(uint)2,album-disc-number=(uint)1,genre=\"Test\"'
tone "03 Evening.opus" 6 659 "audioresample ! opusenc ! oggmux" \
  'title=\"Evening\",artist=\"Reprise Ensemble\",album=\"Sample Tones\",album-artist=\"Reprise Ensemble\",track-number=(uint)3,album-disc-number=(uint)1,genre=\"Test\"'
# A short video (WebM: VP8 and Vorbis) with a subtitle file and an information sidecar beside it.
video="04 Colour Bars"
if [ ! -s "$dir/$video.webm" ]; then
  gst-launch-1.0 -q videotestsrc num-buffers=150 ! "video/x-raw,width=320,height=180,framerate=25/1" ! vp8enc deadline=1 \
    ! webmmux name=mux ! filesink location="$dir/$video.webm.part" \
    audiotestsrc num-buffers=$(( 6 * 44100 / 1024 )) freq=330 volume=0.3 ! audioconvert \
    ! taginject 'tags="title=\"Colour Bars\",artist=\"Reprise Ensemble\",album=\"Sample Tones\",album-artist=\"Reprise Ensemble\",track-number=(uint)4,album-disc-number=(uint)1"' ! vorbisenc ! mux.
  mv "$dir/$video.webm.part" "$dir/$video.webm"
fi
cat > "$dir/$video.en.srt" <<'SRT'
1
00:00:00,500 --> 00:00:02,500
Colour bars, as television ended its day.

2
00:00:03,000 --> 00:00:05,500
Reprise draws this line from a subtitle file.
SRT
cat > "$dir/$video.reprise.json" <<'JSON'
{"title": "Colour Bars", "subtitle": "Sample video",
 "description": "Six seconds of SMPTE bars and a tone, with subtitles from a file beside it."}
JSON
