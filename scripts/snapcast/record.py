#!/usr/bin/env python3
"""A recording proxy between Snapcast control clients and a real snapserver: listens on a TCP port on loopback, passes
every line through to the server's control port unchanged, and writes down what the client sent and what the server
answered, one JSON object a line ({"t": seconds since start, "dir": ">" or "<", "line": text}). Stops on SIGTERM.

    record.py LISTEN_PORT SERVER_PORT TRANSCRIPT
"""
import json
import signal
import socket
import sys
import threading
import time

listen_port, server_port, transcript_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
out = open(transcript_path, "w", encoding="utf-8")
lock = threading.Lock()
start = time.monotonic()


def note(direction, line):
    with lock:
        out.write(json.dumps({"t": round(time.monotonic() - start, 3), "dir": direction, "line": line}) + "\n")
        out.flush()


def pump(source, sink, direction):
    buffered = b""
    while True:
        data = source.recv(65536)
        if not data:
            break
        sink.sendall(data)
        buffered += data
        while b"\n" in buffered:
            line, buffered = buffered.split(b"\n", 1)
            note(direction, line.decode("utf-8", "replace"))
    try:
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        pass


listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", listen_port))
listener.listen(4)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
while True:
    client, _ = listener.accept()
    server = socket.create_connection(("127.0.0.1", server_port))
    threading.Thread(target=pump, args=(client, server, ">"), daemon=True).start()
    threading.Thread(target=pump, args=(server, client, "<"), daemon=True).start()
