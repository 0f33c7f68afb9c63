# python-mpd2's asyncio client as Home Assistant's MPD integration uses it (sourced by record-transcripts.sh): one
# connection waits in `idle` and, on each change, reads what Home Assistant shows again (status and the current song;
# the queue only when `playlist` changed); another plays, skips, pauses and seeks, and plays the queue again. Start,
# then a quiet stretch (nothing changes: nobody is woken).
start python-mpd2-asyncio "python-mpd2 $(dpkg-query -W -f '${Version}' python3-mpd) asyncio: Home Assistant's idle loop and controls"
/usr/bin/python3 - "$proxy" <<'PY'
import asyncio, sys
from mpd.asyncio import MPDClient

path = sys.argv[1]
woken = []

async def listen(client):
    async for changed in client.idle():
        woken.append(sorted(changed))
        await client.status()
        await client.currentsong()
        if "playlist" in changed:
            await client.playlistinfo()

async def main():
    listener, controller = MPDClient(), MPDClient()
    await listener.connect(path)
    await controller.connect(path)
    listening = asyncio.ensure_future(listen(listener))
    await asyncio.sleep(6)  # a quiet stretch after start: nothing changes, nobody is woken

    async def step(*command):
        try:
            await getattr(controller, command[0])(*command[1:])
        except Exception as error:
            print("error:", error)
        await asyncio.sleep(0.6)

    await step("clear")
    await step("add", "Compilations/Summer Hits")
    await step("play", 0)
    await step("next")
    await step("pause", 1)
    await step("next")
    await step("pause", 0)
    await step("previous")
    await step("seekcur", 20)
    await step("play", 1)
    await step("stop")
    await step("play")
    await step("stop")
    await asyncio.sleep(1)
    listening.cancel()
    listener.disconnect()
    controller.disconnect()
    print(len(woken), "wakes:", woken)

asyncio.run(main())
PY
stop
