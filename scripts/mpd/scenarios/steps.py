"""What the python-mpd2 scenarios share: a client connected to the recording proxy, and steps that each run one
command as a user's action (its answer printed when asked, an MPD error printed rather than raised), then wait a
moment as a person would."""
import sys
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


def session(pause=0.2):
    """The client on the proxy named by the script's first argument (python_steps passes it) and its stepper."""
    client = connect(sys.argv[1])
    return client, stepper(client, pause=pause)

