import RepriseCore

/// What the server can play: `urlhandlers` (the URI schemes Reprise opens) and `decoders` (GStreamer, with the file
/// suffixes Reprise takes as media); where its music is: `config` (to the owner's local clients, as MPD's to local
/// ones) and `listmounts` (the music folder, the root's storage); `clearerror`; `kill`.
extension MPDCommandContext {
    func serverCommands() -> [MPDCommand] {
        [
            MPDCommand("config", .admin, 0, 0) { [self] call throws(MPDError) in
                guard call.session.mayNameLocalFiles else { throw MPDError(.permission, "Command only permitted to local clients") }
                if library != nil { call.add("music_directory", songs.musicFolder) }
                return .done
            },
            MPDCommand("listmounts", .read, 0, 0) { [self] call throws(MPDError) in
                guard library != nil else { throw MPDError(.noExist, "No database") }
                call.add("mount", "")
                call.add("storage", songs.musicFolder)
                return .done
            },
            // MPD's kill: the server stops (Reprise as on MPRIS's Quit, its state saved); no reply, as MPD sends none.
            MPDCommand("kill", .admin, 0, 0) { [self] _ throws(MPDError) in
                guard let onKill else { throw MPDError(.system, "Cannot stop this server") }
                onKill()
                return .close
            },
            // The error `status` shows is left out until another one comes.
            MPDCommand("clearerror", .control, 0, 0) { [self] _ throws(MPDError) in
                clearedError = outputs.port?.outputProblem
                return .done
            },
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

/// The sound server's outputs as MPD's: Reprise plays to one of them at a time; enabling one moves its stream there
/// (as `reprise output set` does).
public protocol MPDOutputs: AnyObject {
    var outputs: [(name: String, description: String, current: Bool)] { get }
    /// What is wrong with the output in use ("" when nothing is known to be).
    var outputProblem: String { get }
    func setOutput(_ name: String) throws(PlayerError)
}

extension MPDCommandContext {
    func outputCommands() -> [MPDCommand] {
        [
            MPDCommand("outputs", .read, 0, 0) { [self] call throws(MPDError) in
                for (id, output) in numberedOutputs() {
                    call.add("outputid", id)
                    call.add("outputname", output.description.isEmpty ? output.name : output.description)
                    call.add("plugin", "pulse")
                    call.add("outputenabled", output.current ? 1 : 0)
                    if output.current, let problem = outputs.port?.outputProblem, !problem.isEmpty { call.add("attribute", "error=" + problem) }
                }
                return .done
            },
            MPDCommand("enableoutput", .admin, 1, 1) { [self] call throws(MPDError) in
                try enableOutput(call[0], toggling: false)
                return .done
            },
            MPDCommand("toggleoutput", .admin, 1, 1) { [self] call throws(MPDError) in
                try enableOutput(call[0], toggling: true)
                return .done
            },
            MPDCommand("outputset", .admin, 3, 3) { [self] call throws(MPDError) in
                _ = try output(call[0])
                guard !call[1].isEmpty, call[1].utf8.allSatisfy({ $0 == UInt8(ascii: "_") || Self.isASCIIAlphanumeric($0) }) else {
                    throw .argument("Illegal attribute name")
                }
                // A sound server's output has no attribute a client sets (as MPD's outputs other than ALSA's DSD ones).
                throw .argument("Unsupported attribute")
            },
            MPDCommand("disableoutput", .admin, 1, 1) { [self] call throws(MPDError) in
                let output = try output(call[0])
                guard !output.current else {
                    throw MPDError(.system, "Reprise plays to one output at a time: enable another one instead")
                }
                return .done
            },
        ]
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private func output(_ text: String) throws(MPDError) -> (name: String, description: String, current: Bool) {
        let id = try MPDArguments.unsigned(text)
        guard let found = numberedOutputs().first(where: { $0.id == id }) else { throw .noExist("No such audio output") }
        return found.output
    }

    /// The sound server's outputs with their MPD ids, by id.
    private func numberedOutputs() -> [(id: Int, output: (name: String, description: String, current: Bool))] {
        outputs.numbered()
    }

    private func enableOutput(_ text: String, toggling: Bool) throws(MPDError) {
        let chosen = try output(text)
        if chosen.current {
            guard !toggling else { throw MPDError(.system, "Reprise plays to one output at a time: enable another one instead") }
            return
        }
        do throws(PlayerError) {
            try outputs.port?.setOutput(chosen.name)
        } catch {
            throw MPDError(error)
        }
    }
}
