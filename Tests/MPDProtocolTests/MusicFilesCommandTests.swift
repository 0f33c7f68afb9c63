import RepriseCore
import Testing
@testable import MPDProtocol

/// The music folder's files in memory. Covers: sent in chunks of the connection's binary limit with the whole size
/// first, the embedded picture with its type; MPD's answers for no cover, an offset past the end and a name outside
/// the music folder. `listfiles`: a folder's files and folders.
@Suite struct MusicFilesCommandTests {
    final class MemoryArtwork: MPDMusicFiles {
        var folders: [String: [MPDFolderEntry]] = [:]
        var covers: [String: [UInt8]] = [:]
        var pictures: [String: (bytes: [UInt8], mediaType: String)] = [:]
        let folderModifiedSeconds: @Sendable (String) -> Int64? = { _ in nil }
        /// Paths that are no file at all.
        var missing: Set<String> = []
        private(set) var asked: [String] = []

        func folderCover(in folder: String, offset: Int, length: Int, then: @escaping ((size: Int, bytes: [UInt8])?) -> Void) {
            asked.append(folder)
            guard let cover = covers[folder] else { return then(nil) }
            let start = min(offset, cover.count)
            then((cover.count, Array(cover[start..<min(cover.count, start + length)])))
        }

        func embeddedPicture(of path: String, then: @escaping (((bytes: [UInt8], mediaType: String)?)?) -> Void) {
            asked.append(path)
            then(missing.contains(path) ? nil : .some(pictures[path]))
        }

        var comments: [String: [(key: String, value: String)]] = [:]

        func comments(of path: String, limitBytes: Int, then: @escaping (MPDFileComments?) -> Void) {
            asked.append(path)
            guard let found = comments[path] else { return then(nil) }
            then(found.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } > limitBytes ? .tooLarge : .comments(found))
        }

        var fingerprints: [String: MPDFingerprint] = [:]

        func fingerprint(of path: String, then: @escaping (MPDFingerprint) -> Void) {
            asked.append(path)
            then(fingerprints[path] ?? .cannotOpen(reason: "No such file or directory"))
        }

        func entries(of folder: String, then: @escaping ([MPDFolderEntry]?) -> Void) {
            asked.append(folder)
            then(folders[folder])
        }
    }

    /// `readcomments`: a file's every tag, as its reader names them, those MPD lists (a name of letters, `_` and `-`;
    /// a value of one line); the music folder's files, and the owner's local files elsewhere; MPD's answer for
    /// anything else.
    @Test func readcommentsListsAFilesTags() {
        let files = MemoryArtwork()
        files.comments["/music/A/b.ogg"] = [("TITLE", "B"), ("COMMENT", "two\nlines"), ("", "no key"), ("X\nOK", "injected"),
                                            ("title", "b"), ("R128_TRACK_GAIN", "-512"), ("MUSICBRAINZ_TRACKID", "id"),
                                            ("_x", "1"), ("Release-Type", "album"), ("Empty", ""), ("Ké", "v")]
        files.comments["/elsewhere/c.ogg"] = [("TITLE", "C")]
        let rig = SessionTests.Rig(tracks: 0, files: files)
        #expect(rig.send("readcomments A/b.ogg")
                == "TITLE: B\ntitle: b\nMUSICBRAINZ_TRACKID: id\nRelease-Type: album\nEmpty: \nOK\n")
        #expect(rig.send("readcomments A/missing.ogg") == "ACK [50@0] {readcomments} No such song\n")
        #expect(rig.send("readcomments ../elsewhere/c.ogg") == "ACK [50@0] {readcomments} No such song\n")
        #expect(rig.send("readcomments /elsewhere/c.ogg") == "ACK [50@0] {readcomments} No such song\n", "not the owner's client")
        #expect(rig.send("readcomments http://127.0.0.1:9/radio.ogg") == "ACK [50@0] {readcomments} No such song\n")
        let owner = SessionTests.Rig(tracks: 0, files: files, mayNameLocalFiles: true)
        #expect(owner.send("readcomments /elsewhere/c.ogg") == "TITLE: C\nOK\n")
        #expect(owner.send("readcomments file:///elsewhere/c.ogg") == "TITLE: C\nOK\n")
    }

    /// A long value (an embedded picture's base64 in a Vorbis comment) is listed whole; tags longer than a reply may
    /// be are refused with an error, where mpd drops the client whose output buffer they outgrow.
    @Test func readcommentsListsLongValuesWholeAndRefusesMoreThanAReply() {
        let files = MemoryArtwork()
        let picture = String(repeating: "QUJD", count: 300_000)
        files.comments["/music/long.ogg"] = [("TITLE", "Long"), ("METADATA_BLOCK_PICTURE", picture)]
        files.comments["/music/huge.ogg"] = [("TITLE", "Huge"), ("DESCRIPTION", String(repeating: "x", count: MPDSession.maximumReplyBytes))]
        let rig = SessionTests.Rig(tracks: 0, files: files)
        #expect(rig.send("readcomments long.ogg") == "TITLE: Long\nMETADATA_BLOCK_PICTURE: \(picture)\nOK\n")
        #expect(rig.send("readcomments huge.ogg") == "ACK [52@0] {readcomments} Tags larger than a reply may be (8388608 bytes)\n")
        #expect(rig.send("ping") == "OK\n", "the client stays connected")
    }

    /// `getfingerprint`: the music folder's files, and the owner's local files elsewhere; MPD's answers for a file
    /// that cannot be opened or decoded; nothing outside the music folder for anyone else, no stream.
    @Test func getfingerprintAnswersAsMPD() {
        let files = MemoryArtwork()
        files.fingerprints["/music/A/b.flac"] = .fingerprint("AQADtEmUaEkSZSoAAA")
        files.fingerprints["/music/A/notes.txt"] = .undecodable
        files.fingerprints["/music/A/c.flac"] = .unavailable
        files.fingerprints["/elsewhere/d.flac"] = .fingerprint("AQAD")
        let rig = SessionTests.Rig(tracks: 0, files: files)
        #expect(rig.send("getfingerprint A/b.flac") == "chromaprint: AQADtEmUaEkSZSoAAA\nOK\n")
        #expect(rig.send("getfingerprint \"A/missing.flac\"")
                == "ACK [52@0] {getfingerprint} Failed to open '/music/A/missing.flac': No such file or directory\n")
        #expect(rig.send("getfingerprint A/notes.txt") == "ACK [5@0] {getfingerprint} Decoding failed\n")
        #expect(rig.send("getfingerprint A/c.flac").hasPrefix("ACK [5@0] {getfingerprint} No fingerprinter"))
        let asked = files.asked.count
        #expect(rig.send("getfingerprint ../elsewhere/d.flac") == "ACK [50@0] {getfingerprint} No such song\n")
        #expect(rig.send("getfingerprint /elsewhere/d.flac") == "ACK [50@0] {getfingerprint} No such song\n", "not the owner's client")
        #expect(rig.send("getfingerprint http://127.0.0.1:9/radio.ogg") == "ACK [50@0] {getfingerprint} No such song\n")
        #expect(files.asked.count == asked, "nothing outside the music folder is opened")
        #expect(rig.send("getfingerprint").hasPrefix("ACK [2@0] {getfingerprint}"))
        let owner = SessionTests.Rig(tracks: 0, files: files, mayNameLocalFiles: true)
        #expect(owner.send("getfingerprint /elsewhere/d.flac") == "chromaprint: AQAD\nOK\n")
    }

    @Test func listfilesListsAFoldersFilesAndFoldersInsideTheMusicFolderOnly() {
        let files = MemoryArtwork()
        files.folders["/music"] = [MPDFolderEntry(name: "b.ogg", size: 1234, modified: 0),
                                   MPDFolderEntry(name: "A", size: nil, modified: 86400)]
        files.folders["/music/A"] = [MPDFolderEntry(name: "bad\nname", size: 1, modified: 0)]
        let rig = SessionTests.Rig(tracks: 0, files: files)
        #expect(rig.send("listfiles") == """
            directory: A
            Last-Modified: 1970-01-02T00:00:00Z
            file: b.ogg
            size: 1234
            Last-Modified: 1970-01-01T00:00:00Z
            OK

            """)
        #expect(rig.send("listfiles \"A/\"") == "OK\n")
        #expect(files.asked.last == "/music/A")
        #expect(rig.send("listfiles B") == "ACK [52@0] {listfiles} No such directory\n")
        #expect(rig.send("listfiles ../etc") == "ACK [52@0] {listfiles} No such directory\n")
        #expect(rig.send("listfiles /etc") == "ACK [52@0] {listfiles} No such directory\n")
        #expect(rig.send("listfiles a b").hasPrefix("ACK [2@0] {listfiles}"))
    }

    @Test func albumartSendsTheFoldersCoverInChunks() {
        let artwork = MemoryArtwork()
        artwork.covers["/music/A"] = Array(0..<100)
        let rig = SessionTests.Rig(tracks: 0, files: artwork)
        #expect(rig.send("binarylimit 64") == "OK\n")
        let first = Array(rig.session.takeOutputAfter("albumart \"A/1.ogg\" 0"))
        #expect(first == Array("size: 100\nbinary: 64\n".utf8) + Array(0..<64) + Array("\nOK\n".utf8))
        let second = Array(rig.session.takeOutputAfter("albumart \"A/1.ogg\" 64"))
        #expect(second == Array("size: 100\nbinary: 36\n".utf8) + Array(64..<100) + Array("\nOK\n".utf8))
        #expect(rig.send("albumart \"A/1.ogg\" 101") == "ACK [2@0] {albumart} Offset too large\n")
        #expect(rig.send("albumart \"B/2.ogg\" 0") == "ACK [50@0] {albumart} No file exists\n")
        #expect(rig.send("albumart \"../etc/x.ogg\" 0") == "ACK [50@0] {albumart} No file exists\n")
        #expect(rig.send("albumart /etc/x.ogg 0") == "ACK [50@0] {albumart} No file exists\n")
        #expect(rig.send("albumart \"A/1.ogg\" -1") .hasPrefix("ACK [2@0] {albumart}"))
        #expect(!artwork.asked.contains { $0.hasPrefix("/etc") || $0.contains("..") }, "nothing outside the music folder is looked at")
    }

    @Test func readpictureSendsTheEmbeddedPictureWithItsType() {
        let artwork = MemoryArtwork()
        artwork.pictures["/music/A/1.ogg"] = ([1, 2, 3], "image/png")
        let rig = SessionTests.Rig(tracks: 0, files: artwork)
        let reply = Array(rig.session.takeOutputAfter("readpicture \"A/1.ogg\" 1"))
        #expect(reply == Array("size: 3\ntype: image/png\nbinary: 2\n".utf8) + [2, 3] + Array("\nOK\n".utf8))
        #expect(rig.send("readpicture \"A/2.ogg\" 0") == "OK\n", "no picture: an empty reply")
        #expect(rig.send("readpicture \"A/1.ogg\" 4") == "ACK [2@0] {readpicture} Bad file offset\n")
    }
}

extension MPDSession {
    /// Sends `line` and takes the raw reply (binary included).
    fileprivate func takeOutputAfter(_ line: String) -> [UInt8] {
        receive(Array(line.utf8))
        return takeOutput()
    }
}
