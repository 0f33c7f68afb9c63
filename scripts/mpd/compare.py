#!/usr/bin/env python3
"""Compares two replays of one transcript (replay.py's output: the reference MPD's, then Reprise's) reply by reply.
What varies from run to run (times, the uptime) is left out; each deliberate difference is a rule named in README's
table of deviations from MPD ("| `name` | …"), and a rule README does not list is an error. Prints every
difference with the commands that led to it; exits 1 when there is one.

    compare.py MPD_REPLAY REPRISE_REPLAY README
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transcript import ends_reply, escape, parse  # noqa: E402

# Values that differ between any two runs of one server.
VARYING = {b"Added", b"uptime", b"playtime", b"db_update", b"bitrate"}


def rule_utf8_names(line):
    """`non-utf8-names`: MPD sends a file name's bytes as they are on disk; Reprise sends valid UTF-8, each byte
    that is not UTF-8 as U+10FF00 + byte."""
    try:
        line.decode("utf-8")
        return line
    except UnicodeDecodeError:
        out, pos = bytearray(), 0
        while pos < len(line):
            try:
                out += line[pos:].decode("utf-8").encode("utf-8")
                break
            except UnicodeDecodeError as error:
                out += line[pos:pos + error.start]
                for byte in line[pos + error.start:pos + error.end]:
                    out += chr(0x10FF00 + byte).encode("utf-8")
                pos += error.end
        return bytes(out)


def rule_fingerprint_errors(lines):
    """`fingerprint-errors`: MPD answers a failed `getfingerprint` with its command's name left out (`{}`), and a file
    its decoder plugins cannot decode with that plugin's own words (FFmpeg's `avformat_open_input() failed…`) where
    its others say `Decoding failed`. Reprise names the command and says `Decoding failed`: the code is compared."""
    out = []
    for line in lines:
        if line.startswith(b"ACK [") and b"] {} " in line:
            code, _, text = line.partition(b"] {} ")
            line = code + b"] {getfingerprint} " + (b"Decoding failed" if code.startswith(b"ACK [5@") else text)
        out.append(line)
    return out


# Rules: name → (keys dropped from both replies, a function applied to MPD's lines).
RULES = {
    "outputs": ({b"outputname", b"plugin"}, None),
    "decoders": (set(), None),
    "url-handlers": (set(), None),
    "commands-not-served": (set(), None),
    "non-utf8-names": (set(), rule_utf8_names),
    "fingerprint-errors": (set(), None),
}


def normalised(lines, mpd):
    # Under random, the song after the current one is the shuffle's choice, different in every run of any server.
    shuffled = b"random: 1" in lines
    result = []
    previous = b""
    for line in lines:
        # A stored playlist's time is when each server saved it; a song's or a folder's is its file's, the same for both.
        after_playlist, previous = previous.startswith(b"playlist: "), line
        if after_playlist and line.startswith(b"Last-Modified: "):
            line = b"Last-Modified: *"
        if shuffled and line.partition(b": ")[0] in (b"nextsong", b"nextsongid"):
            continue
        key, sep, value = line.partition(b": ")
        if sep and key in VARYING:
            line = key + b": *"
        elif sep and key == b"time" and b":" in value:
            line = key + b": *:" + value.split(b":")[1]
        if sep and any(key in dropped for dropped, _ in RULES.values()):
            continue
        if sep and key == b"command" and value in COMMANDS_NOT_SERVED:
            continue
        if mpd:
            for _, rewrite in RULES.values():
                if rewrite:
                    line = rewrite(line)
        result.append(line)
    return result


def close_enough(a, b):
    """The replies with their `elapsed` lines made equal when they are within five seconds (a lost seek is further
    off): a replay's pace is not the recording's, and each server plays on in real time between commands. A status
    that has `audio` (the decoder's format) where the other has none yet is compared without it: MPD reports it once
    its decoder thread has begun, which a `status` right after `play` may precede. When both have it, it is compared."""
    def audio(lines):
        return [line for line in lines if line.startswith(b"audio: ")]
    if bool(audio(a)) != bool(audio(b)):
        a, b = [line for line in a if not line.startswith(b"audio: ")], [line for line in b if not line.startswith(b"audio: ")]

    def elapsed(lines):
        return next((float(line[9:]) for line in lines if line.startswith(b"elapsed: ")), None)
    x, y = elapsed(a), elapsed(b)
    if x is None or y is None or abs(x - y) > 5:
        return a, b
    same = lambda lines: [b"elapsed: ~" if line.startswith(b"elapsed: ") else line for line in lines]
    return same(a), same(b)


# Commands whose replies are not compared (each a deviation README lists): `decoders` (Reprise plays through
# GStreamer: one plugin, with the suffixes it takes as media, where mpd lists its decoder plugins) and `commands`
# and `notcommands`, compared with the commands Reprise has not taken up left out (see COMMANDS_NOT_SERVED).
NOT_COMPARED = {b"decoders", b"urlhandlers"}

# MPD 0.23's commands Reprise does not serve (README's `commands-not-served`).
COMMANDS_NOT_SERVED = {b"delpartition",
                       b"mixrampdb", b"mixrampdelay", b"mount", b"moveoutput", b"newpartition",
                       b"unmount"}


def exchanges(path):
    """Each reply with the lines sent on its connection since the last reply: [(connection, sent, reply)], and each
    connection's `idle` replies as one stream of changes, {connection: [subsystem]}: when a change is reported
    differs between runs (see replay.py), what is reported must not."""
    sent, replies, current, idle = {}, [], {}, {}
    for connection, kind, data in parse(path):
        if kind == ">":
            sent.setdefault(connection, []).append(data)
        elif kind == "<":
            current.setdefault(connection, []).append(data)
            if ends_reply(data) or data in (b"<closed>", b"<no reply>"):
                reply, lines = current.pop(connection), sent.pop(connection, [])
                if lines and lines[-1].split(b" ")[0] in (b"idle", b"noidle"):
                    stream = idle.setdefault(connection, [])
                    for line in reply:
                        if line.startswith(b"changed: "):
                            # Two changes of one subsystem before the client idles again are one report (a server
                            # merges them; MPD reports a `play` again from its player thread): one or two in a row
                            # is the same. (A change reported twice still shows in the queue's version.)
                            if not (stream and stream[-1] == line):
                                stream.append(line)
                        elif not ends_reply(line):
                            stream.append(line)
                else:
                    replies.append((connection, lines, reply))
    return replies, idle


def main():
    mpd_path, reprise_path, readme = sys.argv[1:4]
    listed = set(re.findall(r"^\| `([a-z0-9-]+)` \|", open(readme, encoding="utf-8").read(), re.M))
    unlisted = set(RULES) - listed
    if unlisted:
        print("deviations not listed in README: " + ", ".join(sorted(unlisted)))
        return 1
    (theirs, their_idle), (ours, our_idle) = exchanges(mpd_path), exchanges(reprise_path)
    differences = 0
    for connection in sorted(set(their_idle) | set(our_idle)):
        a, b = their_idle.get(connection, []), our_idle.get(connection, [])
        if a != b:
            differences += 1
            print("== connection %d's idle: the changes reported differ" % connection)
            print("  mpd:     " + ", ".join(line[9:].decode() for line in a))
            print("  reprise: " + ", ".join(line[9:].decode() for line in b))
    if len(theirs) != len(ours):
        print("MPD gave %d replies, Reprise %d" % (len(theirs), len(ours)))
        differences += 1
    for (connection, sent, mpd_reply), (_, _, reprise_reply) in zip(theirs, ours):
        a, b = close_enough(normalised(mpd_reply, True), normalised(reprise_reply, False))
        if sent and sent[-1].split(b" ")[0] in NOT_COMPARED:
            continue
        if sent and sent[-1].split(b" ")[0] == b"getfingerprint":
            a = rule_fingerprint_errors(a)
        if a != b:
            differences += 1
            print("== connection %d: %s" % (connection, " | ".join(escape(line) for line in sent)))
            for line in a:
                if line not in b:
                    print("  mpd only:     " + escape(line))
            for line in b:
                if line not in a:
                    print("  reprise only: " + escape(line))
            if sorted(a) == sorted(b):
                print("  (same lines, another order)")
    print("%d of %d replies differ" % (differences, len(theirs)))
    return 1 if differences else 0


sys.exit(main())
