"""What the python-mpd2 scenarios share: a client connected to the recording proxy, and steps that each run one
command as a user's action (its answer printed when asked, an MPD error printed rather than raised), then wait a
moment as a person would."""
import time

from mpd import CommandError, MPDClient


def connect(path):
    client = MPDClient()
    client.connect(path)
    return client


def stepper(client, pause=0.2, show=True):
    def step(*command):
        try:
            answer = getattr(client, command[0])(*command[1:])
            if show:
                print(command, answer)
        except CommandError as error:
            print("error:", error)
        time.sleep(pause)
    return step
