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
