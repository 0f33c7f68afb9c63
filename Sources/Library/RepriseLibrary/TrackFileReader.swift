import Glibc
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
        read([(path, folderCover)])[0].map { ($0.track, $0.fileTags) }
    }

    /// A file read: its track, what TagLib read (nil: the discoverer read it), and the file's size and modification
    /// time (``OpenedRegularFile/modifiedNanoseconds``) as it was when opened to be read.
    public struct ReadFile {
        public var track: LibraryTrack
        public var fileTags: FileTags?
        public var size: Int64
        public var modified: Int64
    }

    /// What ``read(_:withFileTags:folderCover:)`` gives for each file, in order, with its size and time; the files
    /// TagLib reads are sent to its process in one call (``TagLibReader/read(_:pictureLimit:processes:)``), so pass a
    /// bounded number.
    public func read(_ files: [(path: String, folderCover: String??)]) -> [ReadFile?] {
        var opened: [(index: Int, path: String, fileExtension: String, descriptor: Int32, size: Int64, modified: Int64,
                      folderCover: String??)] = []
        opened.reserveCapacity(files.count)
        for (index, file) in files.enumerated() {
            guard let regular = OpenedRegularFile(path: file.path) else { continue }
            opened.append((index, file.path, MediaLocation.fileExtension(ofPath: file.path), regular.descriptor, regular.size,
                           regular.modifiedNanoseconds, file.folderCover))
        }
        defer { opened.forEach { close($0.descriptor) } }
        let forTagLib = opened.filter { TagLibReader.reads(fileExtension: $0.fileExtension) }
        let reads = TagLibReader.read(forTagLib.map { ($0.descriptor, $0.size, $0.fileExtension) }, pictureLimit: Self.pictureLimit)
        // What TagLib read, by the file's place in `files`.
        var readByTagLib = [(tags: FileTags, picture: EmbeddedPicture?)?](repeating: nil, count: files.count)
        // How the audio of a file whose tags the discoverer reads is encoded: its headers, as TagLib read them.
        var encodings = [AudioEncoding?](repeating: nil, count: files.count)
        for (file, read) in zip(forTagLib, reads) {
            encodings[file.index] = read?.tags.encoding
            guard let read, !read.tags.wantsAnotherReader(fileExtension: file.fileExtension) else { continue }
            readByTagLib[file.index] = read
        }
        var results = [ReadFile?](repeating: nil, count: files.count)
        for file in opened {
            let (track, fileTags) = readByTagLib[file.index].map { fromTagLib(file.path, $0.tags, $0.picture, listedCover: file.folderCover) }
                ?? fromDiscoverer(file.path, procPath: "/proc/self/fd/\(file.descriptor)", encoding: encodings[file.index],
                                  listedCover: file.folderCover)
            results[file.index] = ReadFile(track: track, fileTags: fileTags, size: file.size, modified: file.modified)
        }
        return results
    }

    private func fromTagLib(_ path: String, _ tags: FileTags, _ picture: EmbeddedPicture?,
                            listedCover: String??) -> (track: LibraryTrack, fileTags: FileTags?) {
        var track = LibraryTrack(path: FilePath(escaped: path))
        readByTagLib += 1
        track.apply(tags)
        if let picture, let art { track.cover = art(picture.bytes, picture.mediaType) }
        if track.cover == nil { track.cover = folderCover(of: path, listedCover: listedCover) }
        return (track, tags)
    }

    private func fromDiscoverer(_ path: String, procPath: String, encoding: AudioEncoding?,
                                listedCover: String??) -> (track: LibraryTrack, fileTags: FileTags?) {
        var track = LibraryTrack(path: FilePath(escaped: path))
        track.fileFacts.encoding = encoding
        readByDiscoverer += 1
        if discoverer == nil {
            GStreamer.initialize() // once per process; a no-op where the service did it
            discoverer = Discoverer(timeoutSeconds: 10, imageLimit: Self.pictureLimit)
        }
        guard let media = discoverer?.discoverNow(MediaURI.file(path: procPath)), media.error == nil else {
            track.cover = folderCover(of: path, listedCover: listedCover)
            return (track, nil)
        }
        let found = media.tags.track
        let tags = TrackTags(title: found.title, artists: found.artists, album: found.album,
                             albumArtists: found.albumArtists, genres: found.genres).sanitized()
        track.title = tags.title
        track.album = tags.album
        track.setArtists(tags.artists, albumArtists: tags.albumArtists)
        track.genres = tags.genres
        track.year = found.contentCreated.flatMap { FileTags.year($0) }
        track.date = found.contentCreated
        track.disc = found.discNumber
        track.track = found.trackNumber
        track.musicBrainz = found.musicBrainz
        track.lengthMicroseconds = media.durationNanoseconds.map { $0 / 1000 }
        if let image = media.image, let art { track.cover = art(image.bytes, image.mediaType) }
        if track.cover == nil { track.cover = folderCover(of: path, listedCover: listedCover) }
        return (track, nil)
    }

    /// The folder part of `path` (found by its bytes: this runs for every file of a pass).
    static func folder(of path: String) -> String {
        String(path[..<(path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? path.endIndex)])
    }

    /// The cover beside `path`: the one the caller found listing the folder (`listedCover` not nil), else looked up.
    private func folderCover(of path: String, listedCover: String??) -> String? {
        if let listedCover { return listedCover }
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
        album = file.tags.album
        genres = file.tags.genres
        year = file.year
        date = file.tags.contentCreated
        disc = file.tags.discNumber
        track = file.tags.trackNumber
        lengthMicroseconds = file.lengthMicroseconds
        loudness = file.loudness
        musicBrainz = file.tags.musicBrainz
        sortNames = file.sortNames
        fileFacts.encoding = file.encoding
        moreTags = file.moreTags
        tagOrder = file.tags.tagOrder
        furtherValues = file.tags.furtherValues
        setArtists(file.tags.artists, albumArtists: file.tags.albumArtists)
    }
}
