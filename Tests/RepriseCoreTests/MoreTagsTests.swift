import RepriseCore
import Testing

/// The further tags: read from a file's properties as MPD reads Vorbis comments, kept in the file's order, stored
/// and read back by the index (anything else in its place read as nothing).
@Suite struct MoreTagsTests {
    @Test func readAsMPDReadsVorbisComments() {
        let tags = FileTags(properties: [("TITLE", "Urlicht"), ("COMPOSER", "Mahler"), ("MOVEMENTNAME", "Urlicht"), ("MOVEMENT", "4"),
                                         ("PERFORMER", "Janet"), ("MOVEMENTNUMBER", "5"), ("PERFORMER", ""), ("PERFORMER", "Chorus"),
                                         ("ORIGINALDATE", "1963"), ("ORGANIZATION", "DG"), ("MUSICBRAINZ_WORKID", "w")])
        #expect(tags.moreTags.entries.map { "\($0.name.rawValue)=\($0.value)" }
                == ["Composer=Mahler", "Movement=Urlicht", "MovementNumber=4", "Performer=Janet", "MovementNumber=5",
                    "Performer=Chorus", "OriginalDate=1963", "MUSICBRAINZ_WORKID=w"])
        #expect(tags.moreTags.values(of: .performer) == ["Janet", "Chorus"])
        #expect(tags.tags.composers == ["Mahler"])
        #expect(tags.year == nil, "the original date is not the date")
    }

    @Test func storedAndReadBack() throws {
        var tags = MoreTags()
        tags.append(.conductor, "Karajan")
        tags.append(.work, "A\u{1E}B\u{1F}C")
        tags.append(.label, "")
        #expect(tags.values(of: .work) == ["A B C"], "the separators are no part of a value")
        let stored = try #require(tags.storedText)
        #expect(MoreTags(storedText: stored) == tags)
        #expect(MoreTags().storedText == nil)
        #expect(MoreTags(storedText: "Nonsense\u{1F}x\u{1E}Conductor\u{1E}Work\u{1F}\u{1E}Label\u{1F}DG").entries.map(\.value) == ["DG"])
    }
}
