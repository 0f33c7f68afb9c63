import RepriseCore

/// Where MPD's stored playlists live: Reprise's playlist files (the folders MPRIS Playlists lists), named as MPD names
/// them — the file name without its extension. Reading and writing happen off the loop; the answers come on it.
public protocol MPDPlaylistFiles: AnyObject {
    /// Every playlist as the folders hold it now: its name, when its file was last written (seconds since 1970), and
    /// whether it is one Reprise writes (M3U), which alone may be changed, removed or renamed.
    func list() -> [(name: String, modified: Int64, isWritable: Bool)]
    /// The URIs playlist `name` lists, or nil when there is none of that name.
    func read(_ name: String, then: @escaping ([String]?) -> Void)
    /// Writes `uris` as playlist `name`: its file when there is one, else a new one. Nil when written, else why not.
    func write(_ uris: [String], as name: String, then: @escaping (String?) -> Void)
    /// Removes playlist `name`; nil when removed, else why not.
    func remove(_ name: String, then: @escaping (String?) -> Void)
    /// Renames playlist `name` to `newName` (its file, in its folder); nil when renamed, else why not.
    func rename(_ name: String, to newName: String, then: @escaping (String?) -> Void)
}

/// Stored playlists: `listplaylists`, `listplaylist`, `listplaylistinfo`, `load`, `save`, `rm`, `rename`,
/// `playlistadd`, `playlistdelete`, `playlistmove`, `playlistclear`. Every name is checked as MPD checks it. Changes
/// run one at a time, in the order clients asked for them (``MPDSerialWork``): an edit reads the file, changes its
/// list here and writes it back whole before the next change starts, and each check for an existing name sees every
/// earlier change. Only M3U files (those Reprise writes) are changed, removed or renamed.
extension MPDCommandContext {
    func storedPlaylistCommands() -> [MPDCommand] {
        [
            MPDCommand("listplaylists", .read, 0, 0) { [self] call throws(MPDError) in
                _ = try files()
                writeStoredPlaylists(to: call)
                return .done
            },
            MPDCommand("listplaylist", .read, 1, 2) { [self] call throws(MPDError) in
                try reading(call) { [self] uris, finish throws(MPDError) in
                    for uri in try Self.window(uris, call.arguments.dropFirst().first) { call.add("file", songs.name(of: uri)) }
                    finish(nil)
                }
            },
            MPDCommand("listplaylistinfo", .read, 1, 2) { [self] call throws(MPDError) in
                try reading(call) { [self] uris, finish throws(MPDError) in
                    let chosen = try Self.window(uris, call.arguments.dropFirst().first)
                    describe(chosen, to: call, then: finish)
                }
            },
            MPDCommand("load", .add, 1, 3) { [self] call throws(MPDError) in
                let point = try insertionPoint(call.arguments.count > 2 ? call[2] : nil)
                return try reading(call) { [self] uris, finish throws(MPDError) in
                    let chosen = try Self.window(uris, call.arguments.count > 1 ? call[1] : nil)
                    guard !chosen.isEmpty else { return finish(nil) }
                    addDescribed(Array(chosen), after: point, finish: finish)
                }
            },
            MPDCommand("save", .control, 1, 1) { [self] call throws(MPDError) in
                let files = try files(), name = try Self.playlistName(call[0])
                let uris = player.queue.entries.map(\.uri)
                return changing { finish in
                    guard !files.list().contains(where: { $0.name == name }) else { return finish(MPDError(.exist, "Playlist already exists")) }
                    files.write(uris, as: name) { finish($0.map { MPDError(.system, $0) }) }
                }
            },
            MPDCommand("rm", .control, 1, 1) { [self] call throws(MPDError) in
                let files = try files(), name = try Self.playlistName(call[0])
                return changing { finish in
                    if let refusal = Self.refusalToChange(name, in: files) { return finish(refusal) }
                    files.remove(name) { finish($0.map { MPDError(.system, $0) }) }
                }
            },
            MPDCommand("rename", .control, 2, 2) { [self] call throws(MPDError) in
                let files = try files(), name = try Self.playlistName(call[0]), newName = try Self.playlistName(call[1])
                return changing { finish in
                    if let refusal = Self.refusalToChange(name, in: files) { return finish(refusal) }
                    guard !files.list().contains(where: { $0.name == newName }) else { return finish(MPDError(.exist, "Playlist already exists")) }
                    files.rename(name, to: newName) { finish($0.map { MPDError(.system, $0) }) }
                }
            },
            MPDCommand("playlistadd", .control, 2, 3) { [self] call throws(MPDError) in
                let name = try Self.playlistName(call[0]), uri = try permittedURI(forName: call[1], in: call)
                let position = try call.arguments.count > 2 ? MPDArguments.unsigned(call[2]) : nil
                return try editing(name, creating: true) { uris throws(MPDError) in
                    let at = position ?? uris.count
                    guard at <= uris.count else { throw .argument("Bad position") }
                    uris.insert(uri, at: at)
                }
            },
            MPDCommand("playlistdelete", .control, 2, 2) { [self] call throws(MPDError) in
                let which = call[1]
                return try editing(try Self.playlistName(call[0]), creating: false) { uris throws(MPDError) in
                    uris.removeSubrange(try MPDArguments.range(which, count: uris.count))
                }
            },
            MPDCommand("playlistmove", .control, 3, 3) { [self] call throws(MPDError) in
                let from = try MPDArguments.unsigned(call[1]), to = try MPDArguments.unsigned(call[2])
                return try editing(try Self.playlistName(call[0]), creating: false) { uris throws(MPDError) in
                    guard from < uris.count, to < uris.count else { throw .argument("Bad song index") }
                    uris.insert(uris.remove(at: from), at: to)
                }
            },
            MPDCommand("playlistclear", .control, 1, 1) { [self] call throws(MPDError) in
                try editing(try Self.playlistName(call[0]), creating: false) { uris throws(MPDError) in uris.removeAll() }
            },
        ]
    }

    /// Each stored playlist by name: `playlist` and `Last-Modified`.
    func writeStoredPlaylists(to call: MPDCall) {
        for playlist in (playlistFiles?.list() ?? []).sorted(by: { $0.name < $1.name }) {
            call.add("playlist", playlist.name)
            call.add("Last-Modified", MPDTime.iso8601(secondsSince1970: playlist.modified))
        }
    }

    private func files() throws(MPDError) -> MPDPlaylistFiles {
        guard let playlistFiles else { throw MPDError(.system, "no playlist folder") }
        return playlistFiles
    }

    /// Reads the playlist the call's first argument names, then runs `body` on its URIs on the loop.
    private func reading(_ call: MPDCall, _ body: @escaping ([String], @escaping (MPDError?) -> Void) throws(MPDError) -> Void)
        throws(MPDError) -> MPDOutcome {
        let files = try files(), name = try Self.playlistName(call[0])
        return .later { finish in
            files.read(name) { uris in
                guard let uris else { return finish(.noExist("No such playlist")) }
                do throws(MPDError) { try body(uris, finish) } catch { finish(error) }
            }
        }
    }

    /// A change of the stored playlists, run after every change asked for before it has finished.
    private func changing(_ change: @escaping (_ finish: @escaping (MPDError?) -> Void) -> Void) -> MPDOutcome {
        .later { [playlistChanges] finish in
            playlistChanges.run { done in
                change { error in
                    done()
                    finish(error)
                }
            }
        }
    }

    /// Reads playlist `name` (an empty one when there is none and `creating`), edits its URIs and writes it back,
    /// with no other change of the stored playlists in between.
    func editing(_ name: String, creating: Bool, _ edit: @escaping (inout [String]) throws(MPDError) -> Void)
        throws(MPDError) -> MPDOutcome {
        let files = try files()
        return changing { finish in
            // A playlist that is not there yet is made when `creating`; one that is must be one Reprise writes.
            if let refusal = Self.refusalToChange(name, in: files), refusal.code != .noExist { return finish(refusal) }
            files.read(name) { found in
                guard var uris = found ?? (creating ? [] : nil) else { return finish(.noExist("No such playlist")) }
                do throws(MPDError) { try edit(&uris) } catch { return finish(error) }
                files.write(uris, as: name) { finish($0.map { MPDError(.system, $0) }) }
            }
        }
    }

    /// Why playlist `name` may not be changed, removed or renamed: there is none, or it is not a file Reprise writes
    /// (an XSPF or PLS file the user made is read, never changed).
    private static func refusalToChange(_ name: String, in files: MPDPlaylistFiles) -> MPDError? {
        guard let playlist = files.list().first(where: { $0.name == name }) else { return .noExist("No such playlist") }
        guard playlist.isWritable else {
            return MPDError(.permission, "\(name) is not an M3U playlist: only those Reprise writes are changed, removed or renamed")
        }
        return nil
    }

    /// Song blocks for `uris`: what the library knows of each (by its file), else the name alone.
    private func describe(_ uris: ArraySlice<String>, to call: MPDCall, then finish: @escaping (MPDError?) -> Void) {
        guard let library else {
            for uri in uris { call.add("file", songs.name(of: uri)) }
            return finish(nil)
        }
        let paths = Set(uris.compactMap { MediaURI($0).flatMap { $0.scheme == "file" ? $0.path : nil } })
        library.withTracks(.all, { tracks in
            Dictionary(tracks.filter { paths.contains($0.path.escaped) }.map { ($0.path.escaped, $0) }, uniquingKeysWith: { a, _ in a })
        }, then: { [self] known in
            for uri in uris {
                if let path = MediaURI(uri).flatMap({ $0.scheme == "file" ? $0.path : nil }), let track = known[path] {
                    songs.write(track, name: songs.name(ofPath: track.path), to: call)
                } else {
                    call.add("file", songs.name(of: uri))
                }
            }
            finish(nil)
        })
    }

    /// The part of `uris` an optional `START:END` argument names.
    private static func window(_ uris: [String], _ text: String?) throws(MPDError) -> ArraySlice<String> {
        uris[try MPDArguments.range(text, count: uris.count)]
    }

    /// The longest name: a file name's 255 bytes less the `.m3u8` it is written with.
    static let maximumPlaylistNameBytes = 250

    /// A name MPD accepts for a stored playlist (not empty, no slash, no line feed or carriage return), that is
    /// also a file name Reprise can write and list: no NUL (the file system would read a shorter name), not starting
    /// with a dot (a hidden file), at most ``maximumPlaylistNameBytes`` bytes. Anything else: MPD's "Bad playlist name".
    static func playlistName(_ name: String) throws(MPDError) -> String {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= maximumPlaylistNameBytes, bytes.first != UInt8(ascii: "."),
              !bytes.contains(where: { $0 == 0 || $0 == UInt8(ascii: "/") || $0 == 0x0A || $0 == 0x0D }) else {
            throw .argument("Bad playlist name")
        }
        return name
    }
}

/// Times as MPD writes them.
enum MPDTime {
    /// `2026-11-27T03:04:05Z` (UTC) for `seconds` since 1970.
    static func iso8601(secondsSince1970 seconds: Int64) -> String {
        var bytes: [UInt8] = []
        append(secondsSince1970: seconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``iso8601(secondsSince1970:)``'s text to `bytes`, digit by digit (a listing writes one per song).
    static func append(secondsSince1970 time: Int64, to bytes: inout [UInt8]) {
        // A file's time is input: beyond ±2^50 s (35 million years) it is written as that bound, never overflowing.
        let seconds = min(max(time, -(1 << 50)), 1 << 50)
        let days = seconds.dividedRoundingDown(by: 86_400), second = seconds - days * 86_400
        // Howard Hinnant's days-to-civil: the proleptic Gregorian date of a day number.
        let z = days + 719_468, era = z.dividedRoundingDown(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) {
            bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        if (0...9999).contains(year) {
            two(year / 100)
            two(year % 100)
        } else {
            bytes.append(contentsOf: String(year).utf8) // a file's time far outside any calendar people use
        }
        bytes.append(UInt8(ascii: "-"))
        two(month)
        bytes.append(UInt8(ascii: "-"))
        two(day)
        bytes.append(UInt8(ascii: "T"))
        two(second / 3600)
        bytes.append(UInt8(ascii: ":"))
        two(second / 60 % 60)
        bytes.append(UInt8(ascii: ":"))
        two(second % 60)
        bytes.append(UInt8(ascii: "Z"))
    }
}

private extension Int64 {
    /// Division rounding towards minus infinity.
    func dividedRoundingDown(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
