#!/usr/bin/env python3
"""Replays a recorded control session (record.py's transcript) against a snapserver's control port: each request the
client sent, in order, after the same pause the client left (so the player settles as it did), waiting for its
answer. Writes each request with its answer, one JSON object a line.

    replay.py TRANSCRIPT PORT OUT
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jsonrpc import Connection  # noqa: E402

transcript_path, port, out_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
entries = [json.loads(line) for line in open(transcript_path, encoding="utf-8") if line.strip()]
connection = Connection(port)
answered_at = None  # when the previous request's answer came, in the recording
out = open(out_path, "w", encoding="utf-8")

for index, entry in enumerate(entries):
    if entry["dir"] != ">":
        continue
    request = json.loads(entry["line"])
    if "id" not in request:
        continue
    if answered_at is not None:
        time.sleep(max(0.0, entry["t"] - answered_at))
    connection.send_line(entry["line"])
    response = connection.answer(request["id"])
    answered_at = next((e["t"] for e in entries[index + 1:]
                        if e["dir"] == "<" and json.loads(e["line"]).get("id") == request["id"]), entry["t"])
    out.write(json.dumps({"request": request, "response": response}) + "\n")
    out.flush()
