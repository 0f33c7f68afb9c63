#!/usr/bin/env python3
"""A Snapcast control client doing what Home Assistant's Snapcast integration and Snapcast's apps do with a stream a
plugin controls: the server's status, every Stream.Control command, every Stream.SetProperty property, and values a
player refuses. Waits for each answer (by id) and lets the player settle before the next status.

    scenario.py PORT
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jsonrpc import Connection  # noqa: E402

connection = Connection(int(sys.argv[1]))
next_id = 0


def ask(method, params=None, settle=0.0):
    global next_id
    next_id += 1
    request = {"id": next_id, "jsonrpc": "2.0", "method": method}
    if params is not None:
        request["params"] = params
    connection.send_line(json.dumps(request))
    connection.answer(next_id)
    time.sleep(settle)


def control(command, params=None):
    body = {"id": "Reprise", "command": command}
    if params is not None:
        body["params"] = params
    ask("Stream.Control", body, settle=1.5)
    ask("Server.GetStatus")


def set_property(name, value):
    ask("Stream.SetProperty", {"id": "Reprise", "property": name, "value": value}, settle=1.0)
    ask("Server.GetStatus")


ask("Server.GetRPCVersion")
ask("Server.GetStatus")
control("play")
control("pause")
control("playPause")
control("next")
control("previous")
control("setPosition", {"position": 10.0})
control("seek", {"offset": 5.0})
set_property("volume", 40)
set_property("loopStatus", "playlist")
set_property("loopStatus", "track")
set_property("loopStatus", "none")
set_property("shuffle", True)
set_property("shuffle", False)
set_property("volume", 150)
set_property("rate", 1.5)
control("stop")
