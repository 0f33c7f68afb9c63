// A test tool: prints the sound server's stream-restore database (what it remembers for each group of streams:
// volume, mute, device), one entry a line, sorted; "none" when the server keeps none. Exits 1 without a server.
import Glibc
import LoopKit
import PulseKit

guard let loop = EventLoop() else { exit(2) }
let client = PulseClient(applicationName: "stream-memory")
var status: Int32 = 1
client.onEvent = { event in
    guard case .connected = event else { return }
    client.readRestoreEntries { entries in
        if let entries {
            for entry in entries.sorted(by: { $0.name < $1.name }) {
                print("\(entry.name) volumes=\(entry.volumes) muted=\(entry.muted) device=\(entry.device ?? "-")")
            }
        } else {
            print("none")
        }
        status = 0
        loop.quit()
    }
}
client.connect()
loop.once(afterMilliseconds: 5000) { loop.quit() }
loop.run()
exit(status)
