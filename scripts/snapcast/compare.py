#!/usr/bin/env python3
"""Compares two replays of one control session (replay.py's output): the reference (snapserver with its own
meta_mpd.py in front of Debian's mpd) and Reprise's (snapserver with reprise-snapcast in front of Reprise). Every answer
must have the same shape: a result where the reference has one (equal, for "ok"), an error where it has one; a
status shows the stream's properties alike (playback status, loop, shuffle, volume, can*, the position within 5 s, the
track's title, artist, album, duration). A difference is allowed only under a name README's Snapcast deviation table
lists; each is printed with its name. Exit status 1 on any other difference (or a name README lacks).

    compare.py REFERENCE REPRISE README
"""
import json
import re
import sys

reference_path, reprise_path, readme_path = sys.argv[1:4]
listed = set(re.findall(r"^\| `([a-z0-9-]+)` \|", open(readme_path, encoding="utf-8").read(), re.M))
reference = [json.loads(line) for line in open(reference_path, encoding="utf-8") if line.strip()]
reprise = [json.loads(line) for line in open(reprise_path, encoding="utf-8") if line.strip()]
failures, allowed = [], []


def differ(name, where, text):
    (allowed if name in listed else failures).append("%s %s: %s" % (name, where, text))


def stream_properties(status):
    streams = status.get("result", {}).get("server", {}).get("streams", [])
    stream = next((s for s in streams if s.get("id") == "Reprise"), {})
    return stream.get("properties", {})


def compare_status(where, ours, theirs):
    mine, other = stream_properties(theirs), stream_properties(ours)
    for key in ["playbackStatus", "loopStatus", "shuffle", "volume", "canControl", "canPlay", "canPause", "canSeek"]:
        if mine.get(key) != other.get(key):
            differ("status-" + key.lower(), where, "%r, reference %r" % (other.get(key), mine.get(key)))
    for key in ["canGoNext", "canGoPrevious"]:
        if mine.get(key) != other.get(key):
            differ("can-go-always", where, "%s %r, reference %r" % (key, other.get(key), mine.get(key)))
    if ("position" in mine) != ("position" in other):
        differ("position-when-stopped", where, "%r, reference %r" % (other.get("position"), mine.get("position")))
    elif "position" in mine and abs(mine["position"] - other["position"]) > 5:
        differ("position", where, "%r, reference %r" % (other["position"], mine["position"]))
    if "rate" in other and "rate" not in mine:
        differ("rate-property", where, "rate %r, the reference sends none" % other["rate"])
    theirs_meta, ours_meta = mine.get("metadata", {}), other.get("metadata", {})
    for key in ["title", "artist", "album", "albumArtist", "genre", "trackNumber", "discNumber", "url"]:
        if theirs_meta.get(key) != ours_meta.get(key):
            differ("metadata-" + key.lower(), where, "%r, reference %r" % (ours_meta.get(key), theirs_meta.get(key)))
    if ("duration" in theirs_meta) != ("duration" in ours_meta) or \
            abs(theirs_meta.get("duration", 0) - ours_meta.get("duration", 0)) > 0.5:
        differ("metadata-duration", where, "%r, reference %r" % (ours_meta.get("duration"), theirs_meta.get("duration")))
    extra = sorted(set(ours_meta) - set(theirs_meta) - {"duration"})
    if extra:
        differ("metadata-more", where, "also %s" % ", ".join(extra))


if len(reference) != len(reprise):
    failures.append("answers: %d, reference %d" % (len(reprise), len(reference)))
for index, (theirs, ours) in enumerate(zip(reference, reprise)):
    request = theirs["request"]
    method = request.get("method")
    where = "#%d %s %s" % (index + 1, method, json.dumps(request.get("params", {}), sort_keys=True))
    if ours["request"] != request:
        failures.append("%s: replayed a different request" % where)
        continue
    a, b = theirs["response"], ours["response"]
    if ("error" in a) != ("error" in b):
        name = "refused-" + (request.get("params", {}).get("property") or request.get("params", {}).get("command") or method)
        differ(name.lower(), where, "Reprise %s, reference %s" % (json.dumps(b.get("error", b.get("result"))),
                                                                  json.dumps(a.get("error", a.get("result")))))
    elif "error" in a:
        if a["error"].get("code") != b["error"].get("code"):
            differ("error-codes", where, "Reprise %s, reference %s" % (json.dumps(b["error"]), json.dumps(a["error"])))
    elif method == "Server.GetStatus":
        compare_status(where, b, a)
    elif method == "Server.GetRPCVersion":
        if a.get("result") != b.get("result"):
            failures.append("%s: %r, reference %r" % (where, b.get("result"), a.get("result")))
    elif a.get("result") != b.get("result"):
        differ("result-" + method.lower().replace(".", "-"), where, "%r, reference %r" % (b.get("result"), a.get("result")))

for line in allowed:
    print("allowed: " + line)
for line in failures:
    print("DIFFERS: " + line)
unknown = sorted(set(l.split(" ")[0] for l in failures) - {"answers:"})
if failures:
    print("%d differences README does not list%s" % (len(failures), (": " + ", ".join(unknown)) if unknown else ""))
    sys.exit(1)
print("%d answers alike (%d listed deviations)" % (len(reprise), len(allowed)))
