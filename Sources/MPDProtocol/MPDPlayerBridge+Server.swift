import RepriseCore

/// What the server can play: `urlhandlers` (the URI schemes Reprise opens) and `decoders` (GStreamer, with the file
/// suffixes Reprise takes as media).
extension MPDPlayerBridge {
    func serverCommands() -> [MPDCommand] {
        [
            MPDCommand("urlhandlers", .read, 0, 0) { call throws(MPDError) in
                for scheme in SupportedSchemes.all { call.add("handler", scheme + "://") }
                return .done
            },
            MPDCommand("decoders", .read, 0, 0) { call throws(MPDError) in
                call.add("plugin", "gstreamer")
                for suffix in MediaLocation.mediaExtensions.sorted() { call.add("suffix", suffix) }
                return .done
            },
        ]
    }
}
