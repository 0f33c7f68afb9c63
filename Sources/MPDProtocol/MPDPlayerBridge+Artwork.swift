import RepriseCore

/// Where covers come from: a folder's cover file and a file's embedded picture, each read off the loop.
public protocol MPDArtwork: AnyObject {
    /// The size of `folder`'s cover file (`cover.png`, `cover.jpg` or `cover.webp`, as MPD looks) and its bytes from
    /// `offset`, at most `length`; nil when it has none.
    func folderCover(in folder: String, offset: Int, length: Int, then: @escaping ((size: Int, bytes: [UInt8])?) -> Void)
    /// The first picture embedded in the file at `path`: its bytes and media type; nil when it has none.
    func embeddedPicture(of path: String, then: @escaping ((bytes: [UInt8], mediaType: String)?) -> Void)
}

/// Covers: `albumart` (the song's folder's cover file) and `readpicture` (the song's embedded picture), in chunks of
/// at most the connection's `binarylimit`, as MPD sends them.
extension MPDPlayerBridge {
    func artworkCommands() -> [MPDCommand] {
        [
            MPDCommand("albumart", .read, 2, 2) { [self] call throws(MPDError) in
                let (path, offset) = try artworkRequest(call)
                let artwork = try artworkSource()
                let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
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
                let artwork = try artworkSource()
                return .later { finish in
                    artwork.embeddedPicture(of: path) { picture in
                        guard let picture else { return finish(nil) } // none: an empty reply, as MPD's
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

    private func artworkSource() throws(MPDError) -> MPDArtwork {
        guard let artwork else { throw .noExist("No file exists") }
        return artwork
    }

    /// The song's path and the offset asked for. Only songs inside the music folder: a name with `..` or an absolute
    /// path outside it names nothing.
    private func artworkRequest(_ call: MPDCall) throws(MPDError) -> (path: String, offset: Int) {
        let offset = try MPDArguments.unsigned(call[1])
        guard let uri = MediaURI(songs.uri(forName: call[0])), uri.scheme == "file",
              !uri.path.split(separator: "/").contains(".."),
              songs.musicFolder == "/" || uri.path.hasPrefix(songs.musicFolder + "/") else {
            throw .noExist("No file exists")
        }
        return (uri.path, offset)
    }
}
