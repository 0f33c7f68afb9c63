#!/usr/bin/env python3
"""Replays a transcript's client side against a server: opens, sends and closes each connection as the recording
did, and reads each reply when the recording had it complete (so an `idle` is answered after the command on another
connection that woke it). Writes the live run as a transcript of its own.

    replay.py TRANSCRIPT SERVER_SOCKET OUTPUT
"""
import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transcript import ReplyReader, ends_reply, escape, parse  # noqa: E402

WAIT_SECONDS = 10

transcript_path, server_path, output_path = sys.argv[1:4]
events = parse(transcript_path)
out = open(output_path, "w", encoding="utf-8")
connections = {}
# How many reply lines the recording had on each connection since its last complete reply.
partial = {}


def write(connection, kind, data=b""):
    out.write("%d%s%s\n" % (connection, kind, (" " + escape(data)) if kind in "<>" else ""))


for connection, kind, data in events:
    if kind == "+":
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(server_path)
        sock.settimeout(WAIT_SECONDS)
        reader = ReplyReader(sock.makefile("rb"))
        reader.line()  # the greeting
        connections[connection] = (sock, reader)
        write(connection, "+")
    elif kind == ">":
        write(connection, ">", data)
        sock, _ = connections.get(connection, (None, None))
        if sock is not None:
            try:
                sock.sendall(data + b"\n")
            except OSError:
                pass
    elif kind == "<":
        if not ends_reply(data):
            continue
        sock, reader = connections.get(connection, (None, None))
        if reader is None:
            write(connection, "<", b"<closed>")
            continue
        try:
            while True:
                line = reader.line()
                if line is None:
                    write(connection, "<", b"<closed>")
                    connections[connection] = (None, None)
                    break
                write(connection, "<", line)
                if ends_reply(line):
                    break
        except (socket.timeout, OSError):
            write(connection, "<", b"<no reply>")
            sock.close()
            connections[connection] = (None, None)
    elif kind == "-":
        sock, _ = connections.pop(connection, (None, None))
        if sock is not None:
            sock.close()
        write(connection, "-")
out.close()
