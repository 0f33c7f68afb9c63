import RepriseCore

/// The music folder's files, each read off the loop: a folder's cover file, a file's embedded picture, a folder's
/// entries.
public protocol MPDMusicFiles: AnyObject {
    /// The size of `folder`'s cover file (`cover.png`, `cover.jpg` or `cover.webp`, as MPD looks) and its bytes from
    /// `offset`, at most `length`; nil when it has none.
    func folderCover(in folder: String, offset: Int, length: Int, then: @escaping ((size: Int, bytes: [UInt8])?) -> Void)
    /// The first picture embedded in the file at `path`: its bytes and media type; `.some(nil)` when it has none,
    /// nil when there is no such file.
    func embeddedPicture(of path: String, then: @escaping (((bytes: [UInt8], mediaType: String)?)?) -> Void)
    /// Every tag of the file at `path`, as its tag reader names them, each value whole (MPD's `readcomments`), or
    /// ``MPDFileComments/tooLarge`` when they are more than `limitBytes` (keys and values); nil when it is not a
    /// regular file or its tags cannot be read.
    func comments(of path: String, limitBytes: Int, then: @escaping (MPDFileComments?) -> Void)
    /// The Chromaprint fingerprint of the file at `path`'s sound (MPD's `getfingerprint`).
    func fingerprint(of path: String, then: @escaping (MPDFingerprint) -> Void)
    /// The regular files and folders in `folder` (links and other kinds left out), nil when it cannot be read.
    func entries(of folder: String, then: @escaping ([MPDFolderEntry]?) -> Void)
    /// When the folder at a path last changed, in seconds since 1970 (nil: unknown). Asked off the loop, where the
    /// library's snapshot is made, for each of its folders.
    var folderModifiedSeconds: @Sendable (String) -> Int64? { get }
}

/// What reading a file's every tag came to (`readcomments`).
public enum MPDFileComments: Sendable {
    /// Its tags, each key as the file writes it, in the file's order.
    case comments([(key: String, value: String)])
    /// More than the reply could hold: none are given.
    case tooLarge
}

/// What fingerprinting a file came to.
public enum MPDFingerprint: Sendable, Equatable {
    /// Chromaprint's compressed fingerprint.
    case fingerprint(String)
    /// The file could not be opened, for the system's reason (`No such file or directory`).
    case cannotOpen(reason: String)
    /// Not a file with sound in it, or one that does not decode.
    case undecodable
    /// No fingerprinter is installed (GStreamer's chromaprint element, in plugins-bad).
    case unavailable
    /// As many fingerprints as are made at a time are already waiting (clients that hang up leave theirs behind).
    case busy
}

/// A file or folder as `listfiles` lists it.
public struct MPDFolderEntry: Sendable, Equatable {
    public var name: String
    /// Nil for a folder.
    public var size: Int64?
    /// Seconds since the epoch.
    public var modified: Int64

    public init(name: String, size: Int64?, modified: Int64) {
        self.name = name
        self.size = size
        self.modified = modified
    }
}

/// Covers: `albumart` (the song's folder's cover file) and `readpicture` (the song's embedded picture), in chunks of
/// at most the connection's `binarylimit`, as MPD sends them; `listfiles`, a music folder's files as they are on disk;
/// `readcomments`, a file's every tag; `getfingerprint`, its sound's Chromaprint fingerprint.
extension MPDCommandContext {
    /// Whether `readcomments` lists a file's tag, as MPD's does: a name of ASCII letters, `_` and `-` that starts with
    /// a letter (`R128_TRACK_GAIN` is not one), a value without control characters (a line break among them).
    static func listsComment(key: String, value: String) -> Bool {
        guard let first = key.utf8.first, Self.isLetter(first) else { return false }
        return key.utf8.allSatisfy { Self.isLetter($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
            && !value.utf8.contains { $0 < 0x20 }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    func fileCommands() -> [MPDCommand] {
        [
            MPDCommand("listfiles", .read, 0, 1) { [self] call throws(MPDError) in
                let name = call.arguments.first ?? ""
                let files = try filesSource()
                guard let folder = musicFolderPath(name) else { throw MPDError(.system, "No such directory") }
                return .later { finish in
                    files.entries(of: folder) { entries in
                        guard let entries else { return finish(MPDError(.system, "No such directory")) }
                        for entry in entries.sorted(by: { $0.name < $1.name }) where !entry.name.contains("\n") {
                            if let size = entry.size {
                                call.add("file", entry.name)
                                call.add("size", size)
                            } else {
                                call.add("directory", entry.name)
                            }
                            call.add("Last-Modified", MPDTime.iso8601(secondsSince1970: entry.modified))
                        }
                        finish(nil)
                    }
                }
            },
            MPDCommand("readcomments", .read, 1, 1) { [self] call throws(MPDError) in
                try laterWithSong(call) { files, path, finish in
                    // As much as one reply may be (mpd's output buffer; mpd drops a client whose reply outgrows it).
                    files.comments(of: path, limitBytes: MPDSession.maximumReplyBytes) { found in
                        switch found {
                        case nil: finish(.noExist("No such song"))
                        case .tooLarge?:
                            finish(MPDError(.system, "Tags larger than a reply may be (\(MPDSession.maximumReplyBytes) bytes)"))
                        case .comments(let comments)?:
                            for (key, value) in comments where Self.listsComment(key: key, value: value) { call.add(key, value) }
                            finish(nil)
                        }
                    }
                }
            },
            MPDCommand("getfingerprint", .read, 1, 1) { [self] call throws(MPDError) in
                try laterWithSong(call) { files, path, finish in
                    files.fingerprint(of: path) { outcome in
                        switch outcome {
                        case .fingerprint(let fingerprint):
                            call.add("chromaprint", fingerprint)
                            finish(nil)
                        // MPD's answers: the path it opened and the system's reason; its decoder's failure.
                        case .cannotOpen(let reason):
                            finish(MPDError(.system, MPDResponse.oneLine("Failed to open '\(path)': \(reason)")))
                        case .undecodable: finish(MPDError(.unknown, "Decoding failed"))
                        case .unavailable: finish(MPDError(.unknown, "No fingerprinter: GStreamer's chromaprint element is not installed"))
                        case .busy: finish(MPDError(.unknown, "Too many fingerprints asked for at once; ask again later"))
                        }
                    }
                }
            },
            MPDCommand("albumart", .read, 2, 2) { [self] call throws(MPDError) in
                let (path, offset) = try artworkRequest(call)
                let artwork = try filesSource()
                // A song's folder; a name ending in a slash is the folder itself (Cantata asks so).
                let folder = call[0].hasSuffix("/") ? path : String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
                return .later { finish in
                    artwork.folderCover(in: folder, offset: offset, length: call.session.binaryLimit) { found in
                        guard let found else { return finish(.noExist("No file exists")) }
                        guard offset <= found.size else { return finish(.argument("Offset too large")) }
                        call.add("size", found.size)
                        call.binary(found.bytes)
                        finish(nil)
                    }
                }
            },
            MPDCommand("readpicture", .read, 2, 2) { [self] call throws(MPDError) in
                let (path, offset) = try artworkRequest(call)
                let artwork = try filesSource()
                return .later { finish in
                    artwork.embeddedPicture(of: path) { found in
                        guard let found else { return finish(.noExist("No such song")) }
                        guard let picture = found else { return finish(nil) } // none: an empty reply, as MPD's
                        guard offset <= picture.bytes.count else { return finish(.argument("Bad file offset")) }
                        call.add("size", picture.bytes.count)
                        call.add("type", picture.mediaType)
                        let end = offset + min(picture.bytes.count - offset, call.session.binaryLimit)
                        call.binary(picture.bytes[offset..<end])
                        finish(nil)
                    }
                }
            },
        ]
    }

    /// A command on one song's file (`readcomments`, `getfingerprint`): the music folder's files, and for the owner's
    /// Unix-socket client local files elsewhere; anything else is `No such song`. `body` starts the work and finishes.
    private func laterWithSong(_ call: MPDCall, _ body: @escaping (MPDMusicFiles, String, @escaping (MPDError?) -> Void) -> Void)
        throws(MPDError) -> MPDOutcome {
        guard let path = musicFolderPath(call[0]) ?? ownersLocalPath(call[0], in: call) else { throw .noExist("No such song") }
        let files = try filesSource()
        return .later { finish in body(files, path, finish) }
    }

    private func filesSource() throws(MPDError) -> MPDMusicFiles {
        guard let musicFiles else { throw .noExist("No file exists") }
        return musicFiles
    }

    /// The song's path and the offset asked for. Only songs inside the music folder: a name with `..` or an absolute
    /// path outside it names nothing.
    private func artworkRequest(_ call: MPDCall) throws(MPDError) -> (path: String, offset: Int) {
        let offset = try MPDArguments.unsigned(call[1])
        guard let path = musicFolderPath(call[0]) else { throw .noExist("No file exists") }
        return (path, offset)
    }

    /// A local file outside the music folder named by the owner's client over the Unix socket (an absolute path or
    /// a `file://` URI), as MPD lets local clients name one; nil for anyone else, a stream or a name with `..`.
    private func ownersLocalPath(_ name: String, in call: MPDCall) -> String? {
        guard call.session.mayNameLocalFiles, name.hasPrefix("/") || name.hasPrefix("file://"),
              let uri = MediaURI(songs.uri(forName: name)), uri.scheme == "file", !uri.path.split(separator: "/").contains("..") else {
            return nil
        }
        return uri.path
    }

    /// The path of what a client named inside the music folder (`""`: the folder itself); nil for a name with `..`,
    /// a stream, or a path outside it.
    private func musicFolderPath(_ name: String) -> String? {
        if name.isEmpty { return songs.musicFolder }
        guard let uri = MediaURI(songs.uri(forName: name)), uri.scheme == "file",
              !uri.path.split(separator: "/").contains(".."),
              songs.musicFolder == "/" || uri.path.hasPrefix(songs.musicFolder + "/") else {
            return nil
        }
        var path = uri.path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
