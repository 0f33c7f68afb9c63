#!/usr/bin/python3
"""An independent client for make bench's PlayPause figure: python-dbus on a GLib main loop, nothing shared with the
Swift harness. For each toggle it reads PlaybackStatus, sends PlayPause (not waiting for its reply), and stops the
clock at the first PropertiesChanged from the player's connection that carries the opposite PlaybackStatus.
Usage: toggle-latency.py BUS_NAME TOGGLES; prints the median and the quartiles in microseconds."""
import statistics
import sys
import time

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

name, toggles = sys.argv[1], int(sys.argv[2])
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
player = bus.get_object(name, "/org/mpris/MediaPlayer2")
owner = bus.get_name_owner(name)
properties = dbus.Interface(player, "org.freedesktop.DBus.Properties")
loop = GLib.MainLoop()
state = {"expected": None, "started": 0.0, "seen": None}


def changed(interface, values, invalidated, sender=None):
    if sender == owner and state["seen"] is None and values.get("PlaybackStatus") == state["expected"]:
        state["seen"] = time.monotonic()
        loop.quit()


bus.add_signal_receiver(changed, dbus_interface="org.freedesktop.DBus.Properties", signal_name="PropertiesChanged",
                        path="/org/mpris/MediaPlayer2", sender_keyword="sender")
samples = []
for _ in range(toggles):
    GLib.timeout_add(250, loop.quit)
    loop.run()  # 250 ms between toggles, signals of the last one drained
    before = properties.Get("org.mpris.MediaPlayer2.Player", "PlaybackStatus")
    state.update(expected="Paused" if before == "Playing" else "Playing", seen=None)
    timeout = GLib.timeout_add(3000, loop.quit)
    state["started"] = time.monotonic()
    player.PlayPause(dbus_interface="org.mpris.MediaPlayer2.Player", reply_handler=lambda: None, error_handler=lambda e: None)
    loop.run()
    if state["seen"] is not None:
        GLib.source_remove(timeout)  # it fired otherwise, and is gone
    if state["seen"] is not None:
        samples.append((state["seen"] - state["started"]) * 1e6)
if samples:
    q = statistics.quantiles(samples, n=4) if len(samples) > 1 else [samples[0]] * 3
    print("%.1f %.1f %.1f %d" % (statistics.median(samples), q[0], q[2], len(samples)))
