import RepriseCore

/// The library: `find`, `search`, `findadd`, `searchadd`, `list`, `count`, `lsinfo`, `listall`, `listallinfo`,
/// `update`, `rescan` and the library's part of `stats`. Every pass over the tracks runs where the index is read,
/// off the loop; only the reply is written on it.
extension MPDCommandContext {
    func libraryCommands() -> [MPDCommand] {
        [
            findCommand("find", ignoringCase: false, into: .reply),
            findCommand("search", ignoringCase: true, into: .reply),
            findCommand("findadd", ignoringCase: false, into: .queue),
            findCommand("searchadd", ignoringCase: true, into: .queue),
            findCommand("searchaddpl", ignoringCase: true, into: .storedPlaylist),
            MPDCommand("list", .read, 1, nil) { [self] call throws(MPDError) in try list(call) },
            MPDCommand("count", .read, 1, nil) { [self] call throws(MPDError) in try count(call) },
            MPDCommand("lsinfo", .read, 0, 1) { [self] call throws(MPDError) in
                // A URI names no folder of the library (Cantata asks `mpd-client://cantata/…` to tell servers apart).
                if let name = call.arguments.first, let uri = MediaURI(name), name.contains(text: "://"), !SupportedSchemes.all.contains(uri.scheme) {
                    throw .argument("Unsupported URI scheme")
                }
                return tree(call, recursive: false, withTags: true)
            },
            MPDCommand("listall", .read, 0, 1) { [self] call throws(MPDError) in tree(call, recursive: true, withTags: false) },
            MPDCommand("listallinfo", .read, 0, 1) { [self] call throws(MPDError) in tree(call, recursive: true, withTags: true) },
            MPDCommand("update", .control, 0, 1) { [self] call throws(MPDError) in update(call) },
            MPDCommand("rescan", .control, 0, 1) { [self] call throws(MPDError) in update(call) },
        ]
    }

    /// Runs `body` over the library's snapshot off the loop, then `write` on it (``MPDLibraryCache/over(_:write:)``).
    func overLibrary<Result: Sendable>(_ body: @escaping @Sendable (MPDLibrarySnapshot) -> Result,
                                       write: @escaping (Result, @escaping (MPDError?) -> Void) -> Void) throws(MPDError) -> MPDOutcome {
        try libraryCache.over(body, write: write)
    }

    /// Makes the library's snapshot ahead of the first command that walks it, once a client is connected.
    func prepareLibrary() { libraryCache.prepare() }

    /// ``overLibrary(_:write:)`` over the named songs.
    private func overTracks<Result: Sendable>(_ body: @escaping @Sendable (MPDSongTable) -> Result,
                                              write: @escaping (Result, @escaping (MPDError?) -> Void) -> Void) throws(MPDError) -> MPDOutcome {
        try overLibrary({ body($0.songs) }, write: write)
    }

    /// Where a search's songs go: into the reply (`find`, `search`), the queue (`findadd`, `searchadd`), or a stored
    /// playlist named by the first argument, made when there is none (`searchaddpl`).
    enum FoundSongsTarget { case reply, queue, storedPlaylist }

    private func findCommand(_ name: String, ignoringCase: Bool, into target: FoundSongsTarget) -> MPDCommand {
        let adding = target != .reply
        let permission: MPDPermissions = target == .reply ? .read : target == .queue ? .add : .control
        return MPDCommand(name, permission, target == .storedPlaylist ? 2 : 1, nil) { [self] call throws(MPDError) in
            var arguments = call.arguments
            let playlist = target == .storedPlaylist ? try Self.playlistName(arguments.removeFirst()) : nil
            var sortTag: String?, window: Range<Int>?
            while arguments.count >= 3, ["sort", "window"].contains(arguments[arguments.count - 2]) {
                let value = arguments.removeLast(), keyword = arguments.removeLast()
                if keyword == "sort" { sortTag = value.lowercased() } else { window = try MPDArguments.range(value, count: Int.max) }
            }
            let filter = try MPDFilter.parse(arguments, ignoringCase: ignoringCase)
            let (sortBy, windowed) = (sortTag, window)
            let (writer, wanted) = (songs, call.session.wantedTags)
            let found = try overTracks({ named -> (matches: [(name: String, track: LibraryTrack)], reply: MPDResponse) in
                var matches = named.positions(matching: filter)
                if let sortBy {
                    let descending = sortBy.hasPrefix("-"), tag = descending ? String(sortBy.dropFirst()) : sortBy
                    let keyed = matches.map { position in
                        let (name, track) = named[position]
                        return (position: position, key: MPDFilter.values(tag, of: track, name: name).first ?? "")
                    }
                    matches = keyed.sorted { descending ? $0.key > $1.key : $0.key < $1.key }.map(\.position)
                }
                if let windowed {
                    matches = Array(matches[min(windowed.lowerBound, matches.count)..<min(windowed.upperBound, matches.count)])
                }
                // The reply made here too, off the loop; what is added is added on it.
                guard !adding else { return (matches.map { named[$0] }, MPDResponse()) }
                var reply = MPDResponse()
                // A sorted search's songs have no Format in MPD 0.23 (the copies it sorts do not keep it).
                for position in matches {
                    writer.write(named.song(at: position), wanted: wanted, writesFormat: sortBy == nil, into: &reply)
                }
                return ([], reply)
            }, write: { [self] found, finish in
                let matches = found.matches
                guard adding else {
                    call.append(found.reply)
                    return finish(nil)
                }
                guard !matches.isEmpty else { return finish(nil) } // no playlist made for nothing, as MPD's
                if let playlist {
                    let uris = matches.map(\.track.path.uri)
                    do throws(MPDError) {
                        guard case .later(let start) = try editing(playlist, creating: true, { $0 += uris }) else { return finish(nil) }
                        return start(finish)
                    } catch {
                        return finish(error)
                    }
                }
                shown.queueChangeSteps = UInt32(clamping: matches.count) // MPD's findadd: a version for each song
                addDescribed(matches.map(\.track.path.uri), after: .end, finish: finish)
            })
            return found
        }
    }

    private func list(_ call: MPDCall) throws(MPDError) -> MPDOutcome {
        let tag = call[0].lowercased()
        guard MPDFilter.tagNames.contains(tag), tag != "any" else { throw .argument("Unknown tag type: \(call[0])") }
        var arguments = Array(call.arguments.dropFirst())
        var groups: [String] = []
        while arguments.count >= 2, arguments[arguments.count - 2] == "group" {
            let group = arguments.removeLast().lowercased()
            arguments.removeLast()
            guard MPDFilter.tagNames.contains(group), group != "any" else { throw .argument("Unknown tag type: \(group)") }
            guard group != tag, !groups.contains(group) else { throw .argument("Conflicting group") }
            groups.append(group)
        }
        // `list album ARTIST` (one argument after the tag): MPD's oldest form, the artist's albums.
        let filter: MPDFilter? = arguments.isEmpty ? nil
            : arguments.count == 1 && tag == "album" && !arguments[0].hasPrefix("(") ? .tag("artist", .equal, arguments[0], ignoringCase: false)
            : try MPDFilter.parse(arguments, ignoringCase: false)
        let keys = groups + [tag]
        return try overLibrary({ snapshot in
            func rows() -> [[String]] {
                var rows = Set<[String]>()
                for (name, track) in (filter.map(snapshot.songs.positions(matching:)) ?? Array(snapshot.songs.indices)).lazy.map({ snapshot.songs[$0] }) {
                    var row: [[String]] = [[]]
                    for key in keys {
                        let values = MPDFilter.values(key, of: track, name: name)
                        row = row.flatMap { prefix in (values.isEmpty ? [""] : values).map { prefix + [$0] } }
                    }
                    rows.formUnion(row)
                }
                return rows.sorted { $0.lexicographicallyPrecedes($1) }
            }
            // Without a filter the answer is the library's own: kept with the snapshot.
            return filter == nil ? snapshot.memoized(keys.joined(separator: "\u{0}"), rows) : rows()
        }, write: { (rows: [[String]], finish) in
            let names = keys.map(Self.tagName)
            var previous: [String] = []
            for row in rows {
                // Only what differs from the row before: each group's value once, then the values under it.
                let first = previous.isEmpty ? 0 : (row.indices.first { previous[$0] != row[$0] } ?? row.count - 1)
                for index in first..<row.count { call.add(names[index], row[index]) }
                previous = row
            }
            finish(nil)
        })
    }

    private func count(_ call: MPDCall) throws(MPDError) -> MPDOutcome {
        var arguments = call.arguments
        var group: String?
        if arguments.count >= 2, arguments[arguments.count - 2] == "group" {
            group = arguments.removeLast().lowercased()
            arguments.removeLast()
        }
        let filter: MPDFilter? = arguments.isEmpty ? nil : try MPDFilter.parse(arguments, ignoringCase: false)
        let groupTag = group
        return try overTracks({ named in
            var totals: [String: (songs: Int, microseconds: Int64)] = [:]
            for (name, track) in (filter.map(named.positions(matching:)) ?? Array(named.indices)).lazy.map({ named[$0] }) {
                let keys = groupTag.map { MPDFilter.values($0, of: track, name: name) } ?? [""]
                for key in keys.isEmpty ? [""] : keys {
                    totals[key, default: (0, 0)].songs += 1
                    totals[key, default: (0, 0)].microseconds = Self.adding(totals[key]!.microseconds, track.lengthMicroseconds)
                }
            }
            return totals.sorted { $0.key < $1.key }.map { ($0.key, $0.value.songs, $0.value.microseconds) }
        }, write: { totals, finish in
            defer { finish(nil) }
            if totals.isEmpty && groupTag == nil {
                call.add("songs", 0)
                call.add("playtime", 0)
            }
            for (key, songs, microseconds) in totals {
                if let groupTag { call.add(Self.tagName(groupTag), key) }
                call.add("songs", songs)
                call.add("playtime", microseconds / 1_000_000) // whole seconds, cut as MPD cuts them
            }
        })
    }

    /// `lsinfo` (one folder: its songs, then its folders), `listall`/`listallinfo` (everything below, the songs
    /// before the folders in each), in MPD's tree order.
    private func tree(_ call: MPDCall, recursive: Bool, withTags: Bool) -> MPDOutcome {
        var trimmed = call.arguments.first ?? ""
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        while trimmed.hasPrefix("/") { trimmed.removeFirst() }
        let folder = trimmed
        let prefix = folder.isEmpty ? "" : folder + "/"
        // The root's lsinfo lists the stored playlists too (MPD's old way, which mpc's lsplaylists still asks).
        let listsPlaylists = folder.isEmpty && !recursive
        guard library != nil else {
            if listsPlaylists { writeStoredPlaylists(to: call) }
            return .done
        }
        // The listing is written where the index is read (it grows with the library): the loop only sends it.
        typealias Listing = (found: Bool, reply: MPDResponse)
        let (writer, wanted) = (songs, call.session.wantedTags)
        let outcome = try? overLibrary({ snapshot -> Listing in
            var reply = MPDResponse()
            if recursive {
                // The snapshot's tree, from the folder down: the folder itself first, as MPD does.
                var found = false
                // The whole library's: room made for it at once. A song with its tags takes some 250 to 400 bytes;
                // more than is written costs only address space (a block so large is a mapping of its own).
                if folder.isEmpty { reply.reserveCapacity(snapshot.songs.count * (withTags ? 384 : 96)) }
                for item in snapshot.tree {
                    if !folder.isEmpty {
                        let name = snapshot.name(of: item)
                        guard name == folder || name.hasPrefix(prefix) else { continue }
                    }
                    found = true
                    switch item {
                    case .song(let song) where withTags: writer.write(snapshot.songs.song(at: song), wanted: wanted, into: &reply)
                    case .folder where withTags: snapshot.writeFolder(snapshot.name(of: item), into: &reply)
                    case .song: reply.add("file", snapshot.name(of: item))
                    case .folder: reply.add("directory", snapshot.name(of: item))
                    }
                }
                return (found, reply)
            }
            var folders = Set<String>()
            var files: [Int] = []
            for position in snapshot.songs.indices {
                let name = snapshot.songs.name(at: position)
                guard name.hasPrefix(prefix) || name == folder else { continue }
                let rest = name.dropFirst(prefix.count)
                if name != folder, let slash = rest.firstIndex(of: "/") {
                    folders.insert(prefix + rest[..<slash])
                } else {
                    files.append(position)
                }
            }
            files.sort { snapshot.treeRank[$0] < snapshot.treeRank[$1] }
            for file in files { writer.write(snapshot.songs.song(at: file), wanted: wanted, into: &reply) }
            for name in folders.sorted() { snapshot.writeFolder(name, into: &reply) }
            return (!folders.isEmpty || !files.isEmpty, reply)
        }, write: { [self] (result: Listing, finish) in
            if !result.found && !folder.isEmpty { return finish(MPDError(.noExist, "No such directory")) }
            call.append(result.reply)
            if listsPlaylists { writeStoredPlaylists(to: call) }
            finish(nil)
        })
        return outcome ?? .done
    }

    private func update(_ call: MPDCall) -> MPDOutcome {
        if let job = libraryCache.update() { call.add("updating_db", job) }
        return .done
    }

    /// A tag's name as MPD prints it (`albumartist` → `AlbumArtist`).
    static func tagName(_ lowercased: String) -> String {
        lowercased == "file" ? "file" : (MPDSongWriter.tagTypes + MPDCommandSet.allMPDTags).first { $0.lowercased() == lowercased } ?? lowercased
    }
}
