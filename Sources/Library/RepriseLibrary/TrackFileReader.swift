import GStreamerKit
import PosixFiles
import RepriseCore
import TagLibKit

/// Reads one music file for the index: with TagLib from its headers (nothing decoded), and with GStreamer's
/// discoverer only where TagLib has no reader for the format, finds the file invalid (a mislabelled container, an
/// unusual one), or finds no title, artist or album in an MP4 (``FileTags/wantsAnotherReader(fileExtension:)``). Every file is opened here without following links and checked to be a regular file; both
/// readers read through that descriptor, so a file replaced by a FIFO or a device since it was listed is never
/// opened by name. One reader per thread.
public final class TrackFileReader {
    private let art: (([UInt8], String) -> String?)?
    private var discoverer: Discoverer?
    /// A folder's cover file, looked up once per folder (``MediaLocation/folderCover(in:fileSystem:)``).
    private var folderCovers: [String: String?] = [:]
    /// Files read by TagLib and by the discoverer, for the log.
    public private(set) var readByTagLib = 0
    public private(set) var readByDiscoverer = 0

    /// The largest embedded picture kept.
    public static let pictureLimit = 16 << 20

    /// - Parameter art: stores an embedded picture (bytes, media type) and returns its path.
    public init(art: (([UInt8], String) -> String?)?) {
        self.art = art
    }

    /// The tags of the file at `path` (what cannot be read keeps its name as its title); nil when it is not a regular
    /// file (any more).
    public func read(_ path: String) -> LibraryTrack? {
        read(path, withFileTags: false)?.track
    }

    /// The tags of the file at `path` and, when TagLib read it, everything it read (lyrics, gains, audio properties).
    /// - Parameter folderCover: the cover picture beside it, when the caller listed its folder (`.some(nil)`: none);
    ///   nil: looked up here.
    public func read(_ path: String, withFileTags: Bool, folderCover: String?? = nil) -> (track: LibraryTrack, fileTags: FileTags?)? {
        guard let file = OpenedRegularFile(path: path) else { return nil }
        if let folderCover { folderCovers[Self.folder(of: path)] = folderCover }
        let result = read(path, descriptor: file.descriptor, size: file.size, procPath: file.procPath)
        file.close()
        return result
    }

    private func read(_ path: String, descriptor: Int32, size: Int64, procPath: String) -> (track: LibraryTrack, fileTags: FileTags?) {
        var track = LibraryTrack(path: FilePath(escaped: path))
        let fileExtension = MediaLocation.fileExtension(ofPath: path)
        if TagLibReader.reads(fileExtension: fileExtension),
           let (tags, picture) = TagLibReader.read(descriptor: descriptor, size: size, fileExtension: fileExtension, pictureLimit: Self.pictureLimit),
           !tags.wantsAnotherReader(fileExtension: fileExtension) {
            readByTagLib += 1
            track.apply(tags)
            if let picture, let art { track.cover = art(picture.bytes, picture.mediaType) }
            if track.cover == nil { track.cover = folderCover(of: path) }
            return (track, tags)
        }
        readByDiscoverer += 1
        if discoverer == nil {
            GStreamer.initialize() // once per process; a no-op where the service did it
            discoverer = Discoverer(timeoutSeconds: 10, imageLimit: Self.pictureLimit)
        }
        guard let media = discoverer?.discoverNow(MediaURI.file(path: procPath)), media.error == nil else {
            track.cover = folderCover(of: path)
            return (track, nil)
        }
        let found = media.tags.track
        let tags = TrackTags(title: found.title, artists: found.artists, album: found.album,
                             albumArtists: found.albumArtists, genres: found.genres).sanitized()
        track.title = tags.title
        track.artist = tags.artists.isEmpty ? nil : tags.artists.joined(separator: ", ")
        track.album = tags.album
        track.albumArtist = tags.albumArtists.first
        track.genre = tags.genres.first
        track.year = found.contentCreated.flatMap { FileTags.year($0) }
        track.disc = found.discNumber
        track.track = found.trackNumber
        track.musicBrainz = found.musicBrainz
        track.lengthMicroseconds = media.durationNanoseconds.map { $0 / 1000 }
        if let image = media.image, let art { track.cover = art(image.bytes, image.mediaType) }
        if track.cover == nil { track.cover = folderCover(of: path) }
        return (track, nil)
    }

    /// The folder part of `path` (found by its bytes: this runs for every file of a pass).
    static func folder(of path: String) -> String {
        String(path[..<(path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? path.endIndex)])
    }

    private func folderCover(of path: String) -> String? {
        let folder = Self.folder(of: path)
        if let known = folderCovers[folder] { return known }
        if folderCovers.count > 4_096 { folderCovers.removeAll() }
        let found = MediaLocation.folderCover(in: folder, fileSystem: PosixFileSystem())
        folderCovers[folder] = .some(found)
        return found
    }
}

extension LibraryTrack {
    /// Takes the fields the index keeps from what TagLib read.
    mutating func apply(_ file: FileTags) {
        title = file.tags.title
        artist = file.tags.artists.isEmpty ? nil : file.tags.artists.joined(separator: ", ")
        album = file.tags.album
        albumArtist = file.tags.albumArtists.first
        genre = file.tags.genres.first
        year = file.year
        disc = file.tags.discNumber
        track = file.tags.trackNumber
        lengthMicroseconds = file.lengthMicroseconds
        loudness = file.loudness
        musicBrainz = file.tags.musicBrainz
    }
}
