#!/usr/bin/env python3
"""Replays a transcript's client side against a server: opens, sends and closes each connection as the recording
did, and reads each reply when the recording had it complete (so an `idle` is answered after the command on another
connection that woke it). Writes the live run as a transcript of its own.

    replay.py TRANSCRIPT SERVER_SOCKET OUTPUT [--unanswered-getfingerprint]

--unanswered-getfingerprint (for Debian's mpd only): a `getfingerprint` the server does not answer in time is taken
as answered with the recorded reply, which the same mpd gave when recorded. mpd 0.23 often never answers one (an
upstream defect: https://github.com/MusicPlayerDaemon/MPD/issues/2286); Reprise's replay never gets this leave.
"""
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transcript import ReplyReader, ends_reply, escape, parse  # noqa: E402

WAIT_SECONDS = 10
CONNECT_PAUSE_SECONDS = 0.3

transcript_path, server_path, output_path = sys.argv[1:4]
recorded_when_unanswered = sys.argv[4:] == ["--unanswered-getfingerprint"]
events = parse(transcript_path)
out = open(output_path, "w", encoding="utf-8")
connections = {}
# Per connection: the last line it sent, the recorded reply being collected, the last idle reply recorded, and
# whether another connection sent a command since that reply.
last_sent, recorded, last_idle, commands_since = {}, {}, {}, {}
# Per connection: the changes the server's last idle answer named.
last_told = {}
REPEAT_WAIT_SECONDS = 1
IDLE_WAIT_SECONDS = 3


def write(connection, kind, data=b""):
    out.write("%d%s%s\n" % (connection, kind, (" " + escape(data)) if kind in "<>" else ""))


def changes(reply):
    return [line for line in reply if line.startswith(b"changed: ")]


def wait_for_idle(connection, seconds):
    """Ends the connection's idle with `noidle` when the server says nothing within `seconds`."""
    sock, reader = connections[connection]
    if not reader.has_data(seconds):
        sock.sendall(b"noidle\n")


def read_reply(connection, recorded_reply=None):
    """Reads one reply on the connection into the live transcript; None when the connection is gone. Under
    --unanswered-getfingerprint, an unanswered getfingerprint's reply is `recorded_reply`."""
    sock, reader = connections[connection]
    lines = []
    try:
        while True:
            line = reader.line()
            if line is None:
                write(connection, "<", b"<closed>")
                connections[connection] = (None, None)
                return None
            write(connection, "<", line)
            lines.append(line)
            if ends_reply(line):
                return lines
    except (socket.timeout, OSError):
        if recorded_when_unanswered and not lines and last_sent.get(connection, b"").startswith(b"getfingerprint "):
            for line in recorded_reply:
                write(connection, "<", line)
            return recorded_reply
        write(connection, "<", b"<no reply>")
        sock.close()
        connections[connection] = (None, None)
        return None


for connection, kind, data in events:
    if kind == "+":
        # A client process starting takes a moment, as it did when recorded: what the server still does after the
        # command before (MPD's player thread telling `player` again once the song started) is not told to a
        # connection that was not there yet.
        time.sleep(CONNECT_PAUSE_SECONDS)
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(server_path)
        sock.settimeout(WAIT_SECONDS)
        reader = ReplyReader(sock)
        reader.line()  # the greeting
        connections[connection] = (sock, reader)
        write(connection, "+")
    elif kind == ">":
        last_sent[connection] = data
        if data not in (b"idle", b"noidle") and not data.startswith(b"idle "):
            for other in commands_since:
                commands_since[other] = True
        write(connection, ">", data)
        sock, _ = connections.get(connection, (None, None))
        if sock is not None:
            try:
                sock.sendall(data + b"\n")
            except OSError:
                pass
    elif kind == "<":
        recorded.setdefault(connection, []).append(data)
        if not ends_reply(data):
            continue
        reply = recorded.pop(connection)
        sock, reader = connections.get(connection, (None, None))
        if reader is None:
            write(connection, "<", b"<closed>")
            continue
        is_idle = last_sent.get(connection, b"").split(b" ")[0] == b"idle"
        if is_idle:
            # When the change is reported differs between servers and between runs (MPD's player thread may report
            # a `play` again a moment later; a server may merge two changes into one reply): an idle the server
            # does not answer in time is ended with `noidle`, and compare.py compares each connection's changes
            # as one stream. A repeat of the reply before (no command since) is waited for only briefly.
            repeat = last_idle.get(connection) == reply and not commands_since.get(connection, True)
            last_idle[connection] = reply
            commands_since[connection] = False
            wait_for_idle(connection, REPEAT_WAIT_SECONDS if repeat else IDLE_WAIT_SECONDS)
        live = read_reply(connection, reply)
        if is_idle and live is not None:
            # A late repeat (MPD's player thread telling `player` again) can answer the idle before the change the
            # recording had, which then stays pending when the client closes. When the answer only repeats what this
            # connection was told last and a recorded change is missing, the client idles once more, as it would,
            # and that answer joins the stream (compare.py merges the repeat; the order of changes is still compared).
            told = changes(live)
            if told and set(told) <= set(last_told.get(connection, [])) and not set(changes(reply)) <= set(told):
                write(connection, ">", last_sent[connection])
                try:
                    connections[connection][0].sendall(last_sent[connection] + b"\n")
                except OSError:
                    pass
                wait_for_idle(connection, IDLE_WAIT_SECONDS)
                live = read_reply(connection)
            if live is not None:
                last_told[connection] = changes(live)
    elif kind == "-":
        sock, _ = connections.pop(connection, (None, None))
        if sock is not None:
            sock.close()
        write(connection, "-")
out.close()
