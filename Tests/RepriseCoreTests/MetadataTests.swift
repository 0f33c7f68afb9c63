import CoreTestDoubles
import Foundation
import Testing
@testable import RepriseCore

@Suite struct MetadataTests {
    @Test func tagsStayHiddenUntilTheStreamPrerolls() {
        let (player, _, observer) = makePlayer()
        let before = player.announcedTrack
        #expect(before?.title == "1")
        player.play()
        player.engineDidReadTags(TrackTags(title: "One"))
        player.engineDidReadTags(TrackTags(artists: ["Someone"]))
        #expect(player.announcedTrack == before)
        let changesBefore = observer.changes
        player.engineDidPreroll(lengthMicroseconds: 3_000_000, seekable: true)
        #expect(observer.changes == changesBefore + 1)
        let info = player.announcedTrack
        #expect(info?.title == "One")
        #expect(info?.tags.artists == ["Someone"])
        #expect(info?.lengthMicroseconds == 3_000_000)
        player.engineDidReadTags(TrackTags(album: "Later"))
        #expect(player.announcedTrack?.tags.album == "Later")
        #expect(player.announcedTrack?.title == "One")
    }

    @Test func switchingTracksKeepsShowingTheOldOneUntilTheNewOneIsReady() {
        let (player, _, _) = makePlayer()
        player.play()
        player.engineDidReadTags(TrackTags(title: "One"))
        player.engineDidPreroll(lengthMicroseconds: 3_000_000, seekable: true)
        player.next()
        #expect(player.announcedTrack?.title == "One")
        player.engineDidFail("corrupt") // track 2 cannot play: still showing One while 3 loads
        #expect(player.announcedTrack?.title == "One")
        player.engineDidPreroll(lengthMicroseconds: 1_000_000, seekable: true)
        #expect(player.announcedTrack?.url == uri(3))
    }

    @Test func entryIdsAreStableAndNeverReused() {
        var queue = PlayQueue()
        let first = queue.append(["a", "b"])
        let inserted = queue.insertAfterCurrent("c")
        #expect(first == [1, 2])
        #expect(inserted.id == 3)
        #expect(queue.entries.map(\.uri) == ["a", "c", "b"])
        #expect(queue.playOrder.map(\.id) == [1, 3, 2])
        #expect(inserted.position == 1)
    }

    @Test func removingEntriesKeepsTheCurrentOne() {
        var queue = PlayQueue()
        queue.append(["a", "b", "c", "d"])
        queue.move(to: 2)
        var removed = queue.remove(id: 1)
        #expect(removed && queue.current?.uri == "c")
        removed = queue.remove(id: 3) // the current one: the next becomes current
        #expect(removed && queue.current?.uri == "d")
        removed = queue.remove(id: 4)
        #expect(removed && queue.current?.uri == "b")
        removed = queue.remove(id: 4)
        #expect(!removed)
        removed = queue.remove(id: 2)
        #expect(removed)
        #expect(queue.current == nil && queue.isEmpty)
        #expect(queue.position(of: 2) == nil)
    }

    @Test func fallbackTitleIsTheDecodedFileName() {
        #expect(TrackInfo.fallbackTitle(for: "file:///music/01%20The%20Song.flac") == "01 The Song")
        #expect(TrackInfo.fallbackTitle(for: "https://radio.example/stream") == "stream")
        #expect(TrackInfo.fallbackTitle(for: "not a uri") == "not a uri")
        #expect(TrackInfo.fallbackTitle(for: "file:///music/Caf%C3%A9/") == "Café", "a folder's name, the slash after it ignored")
        #expect(TrackInfo.fallbackTitle(for: "file:///music//%C3%A9t%C3%A9.ogg") == "été")
        #expect(TrackInfo.fallbackTitle(for: "file:///.hidden") == ".hidden")
        #expect(MediaURI("file:///")?.lastPathComponent == nil)
        #expect(MediaURI("https://radio.example")?.lastPathComponent == nil)
        #expect(MediaURI("file:///a")?.lastPathComponent == "a")
    }

    @Test func mergedTagsKeepEarlierFields() {
        let merged = TrackTags(title: "A", artists: ["X"], trackNumber: 2).merged(with: TrackTags(album: "B", trackNumber: 3))
        #expect(merged == TrackTags(title: "A", artists: ["X"], album: "B", trackNumber: 3))
    }
}

/// Tags from hostile files are cut to what a widget can show before they reach the queue.
@Suite struct TagSanitizingTests {
    @Test func longTextsAndListsAreCutAndEmptyOnesDropped() {
        let hostile = TrackTags(title: String(repeating: "t", count: 400_000), artists: (0..<2_000).map { "Artist \($0)" },
                                album: "", genres: ["", "Rock"], comments: [String(repeating: "é", count: 5_000)])
        var cuts: [String] = []
        let tags = hostile.sanitized { cuts.append($0) }
        #expect(cuts == ["artists: 2000 values, 128 kept"], "what is cut is told")
        #expect(tags.title?.count == TrackTags.maximumTextLength)
        #expect(tags.title?.hasSuffix("…") == true)
        #expect(tags.artists.count == TrackTags.maximumValueCount && tags.artists.first == "Artist 0")
        #expect(tags.album == nil)
        #expect(tags.genres == ["Rock"])
        #expect(tags.comments.first?.count == TrackTags.maximumTextLength)
        let ordinary = TrackTags(title: "Song", artists: ["A", "B"], trackNumber: 3)
        #expect(ordinary.sanitized() == ordinary)
        // A long list of a real track (a compilation's 40 artists) is kept whole (16 were kept before).
        let compilation = TrackTags(title: "Song", artists: (1...40).map { "Artist \($0)" })
        #expect(compilation.sanitized { Issue.record("cut: \($0)") } == compilation)
    }

    @Test func thePlayerStoresOnlySanitizedTags() {
        let (player, _, _) = makePlayer()
        player.play()
        player.engineDidReadTags(TrackTags(title: String(repeating: "x", count: 10_000)))
        player.engineDidPreroll(lengthMicroseconds: 3_000_000, seekable: true)
        #expect(player.announcedTrack?.title.count == TrackTags.maximumTextLength)
        let other = player.queue.entries[1].id
        player.entryDescribed(id: other, tags: TrackTags(artists: Array(repeating: "Same", count: 1_000)),
                              lengthMicroseconds: nil, artURL: nil)
        #expect(player.queue.entry(withID: other)?.tags.artists.count == TrackTags.maximumValueCount)
    }

    /// A batch of the background reading is one change with an edit per entry whose tags changed; it touches the
    /// saved state only when the current entry is among them.
    @Test func aBatchOfDescriptionsIsOneChange() {
        let (player, _, observer) = makePlayer(tracks: 5)
        let ids = player.trackIDs
        while player.takeEntryToDescribe() != nil {}
        observer.reset()
        player.entriesDescribed([(ids[1], TrackTags(title: "B"), 2_000_000, nil, nil), (ids[2], nil, nil, nil, nil),
                                 (ids[3], TrackTags(title: "D"), nil, "file:///d.jpg", nil), (999, TrackTags(title: "gone"), nil, nil, nil)])
        #expect(observer.changes == 1)
        #expect(observer.trackListChanges == [.metadataChanged(id: ids[1]), .metadataChanged(id: ids[3])])
        #expect(observer.published.last?.affectsSavedState == false)
        #expect(player.track(id: ids[1])?.title == "B")
        #expect(player.track(id: ids[1])?.lengthMicroseconds == 2_000_000)
        #expect(player.track(id: ids[3])?.artURL == "file:///d.jpg")
        #expect(player.queue.entry(withID: ids[2])?.isDescribed == true)

        player.entriesDescribed([(ids[4], TrackTags(title: "E"), nil, nil, nil), (ids[0], TrackTags(title: "A"), nil, nil, nil)])
        #expect(observer.changes == 2)
        #expect(observer.published.last?.affectsSavedState == true, "the current entry's tags are saved")
        player.entriesDescribed([])
        #expect(observer.changes == 2)
    }

    @Test func picturesAreRecognisedByTheirBytes() {
        #expect(ImageKind(sniffing: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) == .jpeg)
        #expect(ImageKind(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageKind(sniffing: Array("GIF89a....".utf8)) == .gif)
        #expect(ImageKind(sniffing: Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
        #expect(ImageKind(sniffing: Array(repeating: 0x41, count: 1000)) == nil)
        #expect(ImageKind(sniffing: []) == nil)
        #expect(ImageKind(sniffing: Array("RIFF\0\0\0\0WAVEfmt ".utf8)) == nil)
    }
}
