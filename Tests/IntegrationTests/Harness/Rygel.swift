import Foundation
import TestSupport

extension Session {
    /// Starts Rygel 0.42 inside `namespace` on this session's bus with only its MPRIS plugin (every MPRIS player
    /// that can be controlled becomes a MediaRenderer on loopback); killed by PID in ``close()``. Its config is
    /// given with `--config` and also placed at `$XDG_CONFIG_HOME/rygel.conf` (with `--config` alone Rygel 0.42
    /// still read `/etc/rygel.conf`).
    @discardableResult
    func startRygel(in namespace: NetworkNamespace) throws -> pid_t {
        let config = try makeFolder("rygel-config")
        let plugins = ["External", "MediaExport", "Playbin", "GstLaunch", "Tracker", "Tracker3", "LMS", "Test", "Ruih"]
        let text = """
            [general]
            interface=lo
            upnp-enabled=true
            enable-transcoding=false
            [MPRIS]
            enabled=true

            """ + plugins.map { "[\($0)]\nenabled=false\n" }.joined()
        try text.write(toFile: config + "/rygel.conf", atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": config, "XDG_CACHE_HOME": try makeFolder("rygel-cache")]
        return try namespace.entered {
            try start("rygel", ["--config", config + "/rygel.conf"], logName: "rygel", extraEnvironment: environment)
        }
    }
}
