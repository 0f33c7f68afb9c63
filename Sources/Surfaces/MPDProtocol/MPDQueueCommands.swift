import RepriseCore

/// The queue: `add`, `addid`, `delete`, `deleteid`, `clear`, `move`, `moveid`, `swap`, `swapid`, `shuffle` and
/// the listings (`playlistinfo`, `playlistid`, `plchanges`, `plchangesposid`, `playlist`). Positions are list
/// positions (the order entries were added, whatever the shuffle); ids are the queue's entry ids.
extension MPDCommandContext {
    func queueCommands() -> [MPDCommand] {
        [
            MPDCommand("add", .add, 1, 2) { [self] call throws(MPDError) in
                let after = try insertionPoint(call.arguments.count > 1 ? call[1] : nil)
                return try add(named: call[0], after: after, in: call, then: nil)
            },
            MPDCommand("addid", .add, 1, 2) { [self] call throws(MPDError) in
                let after = try insertionPoint(call.arguments.count > 1 ? call[1] : nil)
                return try add(named: call[0], after: after, in: call) { id in call.add("Id", id) }
            },
            MPDCommand("delete", .control, 1, 1) { [self] call throws(MPDError) in
                let ids = player.trackIDs
                let range = try MPDArguments.range(call[0], count: ids.count)
                for id in ids[range] { player.removeTrack(id: id) }
                return .done
            },
            MPDCommand("deleteid", .control, 1, 1) { [self] call throws(MPDError) in
                player.removeTrack(id: try existingID(call[0]))
                return .done
            },
            MPDCommand("clear", .control, 0, 0) { [self] _ throws(MPDError) in
                // An empty queue cleared is a new version all the same, as MPD's.
                if player.queue.count == 0 {
                    versions.touch([])
                    announceDifferences(also: .playlist)
                }
                player.clear()
                return .done
            },
            MPDCommand("move", .control, 2, 2) { [self] call throws(MPDError) in
                var ids = player.trackIDs
                let range = try MPDArguments.range(call[0], count: ids.count)
                let moved = Array(ids[range])
                ids.removeSubrange(range)
                let target = try destination(call[1], count: ids.count)
                ids.insert(contentsOf: moved, at: target)
                player.reorder(ids)
                return .done
            },
            MPDCommand("moveid", .control, 2, 2) { [self] call throws(MPDError) in
                var ids = player.trackIDs
                let id = try existingID(call[0])
                let from = ids.firstIndex(of: id)!
                ids.remove(at: from)
                ids.insert(id, at: try destination(call[1], count: ids.count))
                player.reorder(ids)
                return .done
            },
            MPDCommand("swap", .control, 2, 2) { [self] call throws(MPDError) in
                var ids = player.trackIDs
                let first = try MPDArguments.range(call[0], count: ids.count).lowerBound
                let second = try MPDArguments.range(call[1], count: ids.count).lowerBound
                ids.swapAt(first, second)
                player.reorder(ids)
                return .done
            },
            MPDCommand("swapid", .control, 2, 2) { [self] call throws(MPDError) in
                var ids = player.trackIDs
                let first = ids.firstIndex(of: try existingID(call[0]))!
                let second = ids.firstIndex(of: try existingID(call[1]))!
                ids.swapAt(first, second)
                player.reorder(ids)
                return .done
            },
            MPDCommand("shuffle", .control, 0, 1) { [self] call throws(MPDError) in
                var ids = player.trackIDs
                let range = try MPDArguments.range(call.arguments.first, count: ids.count)
                ids[range].shuffle()
                player.reorder(ids)
                return .done
            },
            MPDCommand("prio", .control, 2, nil) { [self] call throws(MPDError) in
                let priority = try priorityArgument(call[0])
                let ids = player.trackIDs
                var chosen: [Int] = []
                for text in call.arguments.dropFirst() { chosen += ids[try MPDArguments.range(text, count: ids.count)] }
                player.setPriority(priority, ofEntries: chosen)
                return .done
            },
            MPDCommand("prioid", .control, 2, nil) { [self] call throws(MPDError) in
                let priority = try priorityArgument(call[0])
                var chosen: [Int] = []
                for text in call.arguments.dropFirst() { chosen.append(try existingID(text)) }
                player.setPriority(priority, ofEntries: chosen)
                return .done
            },
            MPDCommand("rangeid", .add, 2, 2) { [self] call throws(MPDError) in
                let id = try MPDArguments.unsigned(call[0])
                let range = try MPDArguments.timeRange(call[1])
                guard player.queue.entry(withID: id) != nil else { throw .noExist("No such song") }
                if player.status != .stopped, player.queue.current?.id == id { throw MPDError(.permission, "Cannot edit the current song") }
                do throws(PlayerError) {
                    try player.setRange(range, ofEntry: id)
                } catch {
                    throw MPDError(error, text: "Invalid start offset")
                }
                return .done
            },
            MPDCommand("addtagid", .add, 3, 3) { [self] call throws(MPDError) in
                let id = try MPDArguments.unsigned(call[0])
                guard let name = MPDTagEdit.tagName(call[1]) else { throw .argument("Unknown tag type: \(call[1])") }
                try editTags(ofEntry: id) { MPDTagEdit.add(name, call[2], to: &$0) }
                return .done
            },
            MPDCommand("cleartagid", .add, 1, 2) { [self] call throws(MPDError) in
                let id = try MPDArguments.unsigned(call[0])
                var name: String?
                if call.arguments.count > 1 {
                    guard let known = MPDTagEdit.tagName(call[1]) else { throw .argument("Unknown tag type: \(call[1])") }
                    name = known
                }
                try editTags(ofEntry: id) { MPDTagEdit.clear(name, in: &$0) }
                return .done
            },
            MPDCommand("playlistinfo", .read, 0, 1) { [self] call throws(MPDError) in
                let ids = player.trackIDs
                let range = try MPDArguments.range(call.arguments.first, count: ids.count)
                for position in range { writeEntry(ids[position], position: position, to: call) }
                return .done
            },
            MPDCommand("playlistfind", .read, 1, nil) { [self] call throws(MPDError) in try findInQueue(call, ignoringCase: false) },
            MPDCommand("playlistsearch", .read, 1, nil) { [self] call throws(MPDError) in try findInQueue(call, ignoringCase: true) },
            MPDCommand("playlistid", .read, 0, 1) { [self] call throws(MPDError) in
                let ids = player.trackIDs
                if let text = call.arguments.first {
                    let id = try existingID(text)
                    writeEntry(id, position: ids.firstIndex(of: id)!, to: call)
                } else {
                    for (position, id) in ids.enumerated() { writeEntry(id, position: position, to: call) }
                }
                return .done
            },
            MPDCommand("playlist", .read, 0, 0) { [self] call throws(MPDError) in
                for (position, entry) in player.queue.entries.enumerated() { call.add("\(position):file", songs.name(of: entry.uri)) }
                return .done
            },
            MPDCommand("plchanges", .read, 1, 2) { [self] call throws(MPDError) in
                let since = try version(call[0])
                let window = try call.arguments.count > 1 ? MPDArguments.range(call[1], count: Int.max) : 0..<Int.max
                for (position, id) in versions.changes(since: since) where window.contains(position) {
                    writeEntry(id, position: position, to: call)
                }
                return .done
            },
            MPDCommand("plchangesposid", .read, 1, 2) { [self] call throws(MPDError) in
                let since = try version(call[0])
                let window = try call.arguments.count > 1 ? MPDArguments.range(call[1], count: Int.max) : 0..<Int.max
                for (position, id) in versions.changes(since: since) where window.contains(position) {
                    call.add("cpos", position)
                    call.add("Id", id)
                }
                return .done
            },
        ]
    }

    /// `playlistfind`/`playlistsearch`: the queue's entries the filter matches (tag pairs or an expression), in order.
    private func findInQueue(_ call: MPDCall, ignoringCase: Bool) throws(MPDError) -> MPDOutcome {
        let filter = try MPDFilter.parse(call.arguments, ignoringCase: ignoringCase)
        for (position, entry) in player.queue.entries.enumerated() {
            let tags = entry.tags
            var song = LibraryTrack(path: FilePath(escaped: MediaURI(entry.uri).map(\.path) ?? entry.uri), title: tags.title,
                                    artist: tags.artists.isEmpty ? nil : tags.artists.joined(separator: ", "), album: tags.album,
                                    albumArtist: tags.albumArtists.first,
                                    year: tags.contentCreated.flatMap { Int($0.prefix(4)) }, disc: tags.discNumber,
                                    track: tags.trackNumber, lengthMicroseconds: entry.lengthMicroseconds)
            song.genres = tags.genres
            song.musicBrainz = tags.musicBrainz
            song.sortNames = tags.sortNames
            song.date = tags.contentCreated
            song.furtherValues = tags.furtherValues
            if filter.matches(song, name: songs.name(of: entry.uri)) {
                songs.write(entry, position: position, priority: entry.priority, to: call)
            }
        }
        return .done
    }

    private func writeEntry(_ id: Int, position: Int, to call: MPDCall) {
        guard let entry = player.queue.entry(withID: id) else { return }
        songs.write(player.announcedEntry(entry), position: position, priority: entry.priority, to: call)
    }

    private func priorityArgument(_ text: String) throws(MPDError) -> Int {
        let value = try MPDArguments.integer(text)
        guard (0...255).contains(value) else { throw .argument("Priority out of range: \(text)") }
        return value
    }

    /// A stream's tags edited, as MPD allows (a file's tags are its file's).
    private func editTags(ofEntry id: Int, _ edit: (inout TrackTags) -> Void) throws(MPDError) {
        guard let entry = player.queue.entry(withID: id) else { throw .noExist("No such song") }
        guard MediaURI(entry.uri)?.scheme != "file" else { throw MPDError(.permission, "Cannot edit tags of local file") }
        do throws(PlayerError) {
            try player.editTags(ofEntry: id, edit)
        } catch {
            throw MPDError(error)
        }
    }

    private func existingID(_ text: String) throws(MPDError) -> Int {
        let id = try MPDArguments.unsigned(text)
        guard player.queue.entry(withID: id) != nil else { throw .noExist("No such song") }
        return id
    }

    private func version(_ text: String) throws(MPDError) -> UInt32 {
        guard let value = UInt32(text) else { throw .argument("Integer expected: \(text)") }
        return value
    }

    /// A position as `move`, `moveid` and `addid` take it: absolute, or `+N`/`-N` from the current entry (`+0`:
    /// right after it). A client's number never overflows: past the range it is a bad index.
    private func position(_ text: String) throws(MPDError) -> Int {
        let value = try MPDArguments.integer(text)
        guard text.hasPrefix("+") || text.hasPrefix("-") else { return value }
        guard let current = currentEntry, let position = player.queue.listIndex(of: current.id) else {
            throw MPDError(.playerSync, "No current song")
        }
        let (sum, overflow) = value.addingReportingOverflow(position + (text.hasPrefix("+") ? 1 : 0))
        guard !overflow else { throw .argument("Bad song index") }
        return sum
    }

    /// Where a `move` puts entries: an absolute position, or `+N`/`-N` relative to the current entry. `count`: the
    /// queue's length without the moved entries. As MPD: an absolute position past it is "Number too large".
    private func destination(_ text: String, count: Int) throws(MPDError) -> Int {
        let target = try position(text)
        if !(text.hasPrefix("+") || text.hasPrefix("-")), target > count { throw .argument("Number too large: \(text)") }
        guard (0...count).contains(target) else { throw .argument("Bad song index") }
        return target
    }

    /// The entry new ones go after for an `add … POS`: nil position: the end; `+N`/`-N`: relative to the current
    /// entry. Returns the id to insert after (nil: at the start), or `.some(.none)` wrapped for the end.
    func insertionPoint(_ text: String?) throws(MPDError) -> InsertionPoint {
        guard let text else { return .end }
        let ids = player.trackIDs
        let position = try position(text)
        guard (0...ids.count).contains(position) else { throw .argument("Bad song index") }
        return position == 0 ? .start : .after(ids[position - 1])
    }

    enum InsertionPoint {
        case start, end, after(Int)
    }

    /// The URI of the song `call`'s client named. A local file outside the music folder is refused with MPD's
    /// "Access denied" unless the client may name local files (its owner's, on the Unix socket).
    func permittedURI(forName name: String, in call: MPDCall) throws(MPDError) -> String {
        let uri = songs.uri(forName: name)
        guard !call.session.mayNameLocalFiles, let media = MediaURI(uri), media.scheme == "file" else { return uri }
        let folder = songs.musicFolder
        guard !media.path.split(separator: "/").contains(".."), folder == "/" || media.path.hasPrefix(folder + "/") else {
            throw MPDError(.permission, "Access denied")
        }
        return uri
    }

    /// Adds what a client named: a song or a folder of the library (`""`: all of it), in the order MPD walks them and
    /// queued with the library's tags (a client reading the queue right after sees them); any other name — a file
    /// not indexed (yet), one outside the music folder, a stream — is read as a URI.
    func add(named name: String, after point: InsertionPoint, in call: MPDCall, then: ((Int) -> Void)?) throws(MPDError) -> MPDOutcome {
        let uri = try permittedURI(forName: name, in: call)
        guard library != nil, let inside = libraryName(name) else {
            return .later { [self] finish in add([uri], after: point, known: [:], then: then, finish: finish) }
        }
        return try overLibrary({ snapshot in snapshot.paths(under: inside) }, write: { [self] paths, finish in
            // Not in the library: a file on disk that is not indexed yet still is added (MPD's wording if it is not).
            guard !paths.isEmpty else { return add([uri], after: point, known: [:], then: then, finish: finish, missing: "No such directory") }
            addDescribed(paths.map(\.uri), after: point, then: then, finish: finish)
        })
    }

    /// `name` as a library name (relative to the music folder, without a trailing slash); nil for a stream or an
    /// absolute path.
    private func libraryName(_ name: String) -> String? {
        guard !name.hasPrefix("/"), !(name.contains(text: "://") && MediaURI(name) != nil) else { return nil }
        var inside = name
        while inside.hasSuffix("/") { inside.removeLast() }
        return inside
    }

    /// Adds `uris` as ``add(_:after:known:then:finish:)`` does, the library's files among them queued with its tags.
    func addDescribed(_ uris: [String], after point: InsertionPoint, then: ((Int) -> Void)? = nil, finish: @escaping (MPDError?) -> Void) {
        guard let library else { return add(uris, after: point, known: [:], then: then, finish: finish) }
        let paths = uris.compactMap { uri in MediaURI(uri).flatMap { $0.scheme == "file" ? FilePath(escaped: $0.path) : nil } }
        library.currentTracks(at: paths) { [self] indexed in
            var known: [String: KnownDescription] = [:]
            for (path, track) in indexed { known[path.uri] = track.knownDescription }
            add(uris, after: point, known: known, then: then, finish: finish)
        }
    }

    /// Adds `uris` at `point`, resolved off the loop like any client URI (those `known` describes queued with it);
    /// `finish` hears the outcome once they are in the queue (`missing`: the ACK's text when they could not be read).
    func add(_ uris: [String], after point: InsertionPoint, known: [String: KnownDescription], then: ((Int) -> Void)?,
             finish: @escaping (MPDError?) -> Void, missing: String? = nil) {
        let before = Set(player.trackIDs)
        let completion: (PlayerError?) -> Void = { [self] error in
            if let error { return finish(MPDError(error, text: missing)) }
            if let then, let added = player.trackIDs.first(where: { !before.contains($0) }) { then(added) }
            finish(nil)
        }
        switch point {
        case .end: player.appendTracks(uris, known: known, completion: completion)
        case .start: player.insertTracks(uris, after: nil, known: known, completion: completion)
        case .after(let id): player.insertTracks(uris, after: id, known: known, completion: completion)
        }
    }
}
