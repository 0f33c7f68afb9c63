#!/usr/bin/env python3
"""A recording proxy between MPD clients and a real MPD: listens on a Unix socket, passes every byte through to the
server's socket unchanged, and writes down what each client sent and what the server answered (transcript.py's
format), in the order it passed. Stops on SIGTERM or SIGINT.

    record.py LISTEN_SOCKET SERVER_SOCKET TRANSCRIPT [COMMENT]
"""
import os
import signal
import socket
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transcript import binary_line, escape  # noqa: E402

listen_path, server_path, transcript_path = sys.argv[1:4]
comment = sys.argv[4] if len(sys.argv) > 4 else ""
lock = threading.Lock()
out = open(transcript_path, "w", encoding="utf-8")
if comment:
    out.write("# " + comment + "\n")
out.flush()
counter = 0


def note(connection, kind, data=b""):
    with lock:
        out.write("%d%s%s\n" % (connection, kind, (" " + escape(data)) if kind in "<>" else ""))
        out.flush()


def client_to_server(connection, client, server):
    stream = client.makefile("rb")
    try:
        for line in stream:
            note(connection, ">", line.rstrip(b"\n"))
            server.sendall(line)
    except OSError:
        pass
    finally:
        try:
            server.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def server_to_client(connection, client, server):
    """Passes the server's replies on, each line written down before the client has it (so the transcript never shows
    a client's next command before the reply it answered)."""
    stream = server.makefile("rb")
    client.sendall(stream.readline())  # the greeting
    try:
        while True:
            line = stream.readline()
            if not line:
                break
            if line.startswith(b"binary: "):
                payload = stream.read(int(line[8:]) + 1)
                note(connection, "<", line.rstrip(b"\n"))
                note(connection, "<", binary_line(payload[:-1]))
                client.sendall(line + payload)
                continue
            note(connection, "<", line.rstrip(b"\n"))
            client.sendall(line)
    except OSError:
        pass
    finally:
        note(connection, "-")
        # Closed for the client too (its reading thread's file still holds the socket, which close alone leaves open).
        try:
            client.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        client.close()


def serve():
    global counter
    listener = socket.socket(socket.AF_UNIX)
    if os.path.exists(listen_path):
        os.unlink(listen_path)
    listener.bind(listen_path)
    listener.listen(16)
    while True:
        client, _ = listener.accept()
        server = socket.socket(socket.AF_UNIX)
        server.connect(server_path)
        counter += 1
        note(counter, "+")
        for target in (client_to_server, server_to_client):
            threading.Thread(target=target, args=(counter, client, server), daemon=True).start()


signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
try:
    serve()
except KeyboardInterrupt:
    pass
