import Testing
@testable import RepriseCore

/// Which other players count as "another player started": a status of Playing and a playing stream from the
/// player's process or a descendant, or, while the sound server cannot be asked, any player but a known mirror.
@Suite struct AudiblePlayersTests {
    /// A process tree: 100 (a browser) → 101 (its audio process) → 102; 200 (playerctld); 300 (a phone mirror).
    static let parents: [Int32: Int32] = [100: 1, 101: 100, 102: 101, 200: 1, 300: 1, 400: 1]

    func connected() -> AudiblePlayers {
        var players = AudiblePlayers { Self.parents[$0] }
        _ = players.soundServerConnected(true)
        return players
    }

    @Test func aPlayerThatSaysPlayingWithoutSoundDoesNotCount() {
        var players = connected()
        #expect(players.playerChanged("org.mpris.MediaPlayer2.playerctld", processID: 200, playing: true, found: false) == [])
        #expect(players.playerChanged("org.mpris.MediaPlayer2.mirror", processID: 300, playing: true, found: false) == [])
        // Another process's sound does not make them count either.
        #expect(players.streamChanged(5, processID: 400, playing: true) == [])
        #expect(players.audible.isEmpty)
    }

    @Test func playingAndAPlayingStreamOfItsOwnMakeItCountWhicheverComesFirst() {
        var players = connected()
        #expect(players.playerChanged("org.mpris.MediaPlayer2.mpv", processID: 100, playing: true, found: false) == [])
        #expect(players.streamChanged(1, processID: 100, playing: true) == [.otherPlayerStarted("org.mpris.MediaPlayer2.mpv")])
        #expect(players.streamChanged(1, processID: 100, playing: false) == [.otherPlayerStopped("org.mpris.MediaPlayer2.mpv")])

        var other = connected()
        #expect(other.streamChanged(1, processID: 100, playing: true) == [])
        #expect(other.playerChanged("org.mpris.MediaPlayer2.mpv", processID: 100, playing: true, found: false)
                == [.otherPlayerStarted("org.mpris.MediaPlayer2.mpv")])
        #expect(other.playerChanged("org.mpris.MediaPlayer2.mpv", processID: 100, playing: false, found: false)
                == [.otherPlayerStopped("org.mpris.MediaPlayer2.mpv")])
    }

    @Test func theProcessTreeIsReadWhenAStreamIsReportedNotAtEachStatusChange() {
        final class Reads: @unchecked Sendable { var count = 0 }
        let reads = Reads()
        var players = AudiblePlayers { reads.count += 1; return Self.parents[$0] }
        _ = players.soundServerConnected(true)
        _ = players.streamChanged(1, processID: 102, playing: true)
        let afterReport = reads.count
        #expect(afterReport == 3, "102 → 101 → 100 → init")
        for round in 0..<20 {
            _ = players.playerChanged("org.mpris.MediaPlayer2.playerctld", processID: 200, playing: round % 2 == 0, found: false)
            _ = players.playerChanged("org.mpris.MediaPlayer2.browser", processID: 100, playing: round % 2 == 0, found: false)
        }
        #expect(reads.count == afterReport, "a mirror echoing every toggle costs no reads of /proc")
        #expect(players.playerChanged("org.mpris.MediaPlayer2.browser", processID: 100, playing: true, found: false)
                == [.otherPlayerStarted("org.mpris.MediaPlayer2.browser")], "its descendant's stream counts for it")
        _ = players.streamChanged(1, processID: 102, playing: true)
        #expect(reads.count == afterReport, "the same stream reported again")
    }

    @Test func aStreamFromADescendantCountsForTheProcessThatOwnsTheName() {
        var players = connected()
        _ = players.playerChanged("org.mpris.MediaPlayer2.firefox.instance_1_5", processID: 100, playing: true, found: false)
        #expect(players.streamChanged(9, processID: 102, playing: true)
                == [.otherPlayerStarted("org.mpris.MediaPlayer2.firefox.instance_1_5")])
        #expect(players.streamRemoved(9) == [.otherPlayerStopped("org.mpris.MediaPlayer2.firefox.instance_1_5")])
    }

    @Test func theProcessIDMayArriveAfterTheStatus() {
        var players = connected()
        _ = players.streamChanged(1, processID: 100, playing: true)
        #expect(players.playerChanged("org.mpris.MediaPlayer2.mpv", processID: nil, playing: true, found: false) == [])
        #expect(players.playerChanged("org.mpris.MediaPlayer2.mpv", processID: 100, playing: true, found: false)
                == [.otherPlayerStarted("org.mpris.MediaPlayer2.mpv")])
        #expect(players.playerGone("org.mpris.MediaPlayer2.mpv") == [.otherPlayerStopped("org.mpris.MediaPlayer2.mpv")])
    }

    @Test func whatWasPlayingWhenRepriseFirstLookedIsFoundNotStarted() {
        var players = connected()
        _ = players.streamChanged(1, processID: 100, playing: true)
        #expect(players.playerChanged("org.mpris.MediaPlayer2.mpv", processID: 100, playing: true, found: true)
                == [.otherPlayerFoundPlaying("org.mpris.MediaPlayer2.mpv")])
        // Before the sound server first answers nobody counts; streams listed while connecting change nothing
        // until the connection is up, and then what plays is found.
        var early = AudiblePlayers { Self.parents[$0] }
        #expect(early.playerChanged("org.mpris.MediaPlayer2.mpv", processID: 100, playing: true, found: false) == [])
        #expect(early.playerChanged("org.mpris.MediaPlayer2.mirror", processID: 300, playing: true, found: true) == [])
        #expect(early.streamChanged(1, processID: 100, playing: true) == [])
        #expect(early.soundServerConnected(true) == [.otherPlayerFoundPlaying("org.mpris.MediaPlayer2.mpv")])
    }

    @Test func losingTheSoundServerRevealsWhatWasPlayingAsFound() {
        var players = connected()
        #expect(players.playerChanged("org.mpris.MediaPlayer2.vlc", processID: 400, playing: true, found: false) == [])
        #expect(players.soundServerConnected(false) == [.otherPlayerFoundPlaying("org.mpris.MediaPlayer2.vlc")])
    }

    @Test func afterLosingTheSoundServerAPlayingPlayerCountsUnlessItIsAKnownMirror() {
        var players = connected()
        _ = players.soundServerConnected(false)
        #expect(players.playerChanged("org.mpris.MediaPlayer2.playerctld", processID: 200, playing: true, found: false) == [])
        #expect(players.playerChanged("org.mpris.MediaPlayer2.kdeconnect.mpris_000001", processID: 300, playing: true,
                                      found: false) == [])
        #expect(players.playerChanged("org.mpris.MediaPlayer2.vlc", processID: 400, playing: true, found: false)
                == [.otherPlayerStarted("org.mpris.MediaPlayer2.vlc")])
        // Once the server answers again, VLC counts only with a stream: it has none, so it stops counting.
        #expect(players.soundServerConnected(true) == [.otherPlayerStopped("org.mpris.MediaPlayer2.vlc")])
        #expect(players.streamChanged(3, processID: 400, playing: true) == [.otherPlayerStarted("org.mpris.MediaPlayer2.vlc")])
        // Losing the server falls back to the name rule: VLC still counts, nothing changes.
        #expect(players.soundServerConnected(false) == [])
    }

    @Test func aProcessTreeWithALoopOrAMissingParentEnds() {
        var players = AudiblePlayers { $0 == 7 ? 8 : ($0 == 8 ? 7 : nil) }
        _ = players.soundServerConnected(true)
        _ = players.playerChanged("org.mpris.MediaPlayer2.a", processID: 100, playing: true, found: false)
        #expect(players.streamChanged(1, processID: 7, playing: true) == [])
        #expect(players.streamChanged(2, processID: 12345, playing: true) == [])
    }

    @Test func procStatParsing() {
        #expect(AudiblePlayers.parentProcessID(inProcStat: "4242 (mpv) S 4200 4242 4200 0 -1") == 4200)
        #expect(AudiblePlayers.parentProcessID(inProcStat: "77 (a) b (c) ) R 12 77 1") == 12)
        #expect(AudiblePlayers.parentProcessID(inProcStat: "") == nil)
        #expect(AudiblePlayers.parentProcessID(inProcStat: "1 (x)") == nil)
    }
}

/// SupportedMimeTypes: registered names, only for what the installed elements can open and decode.
@Suite struct SupportedMediaTypesTests {
    @Test func typesNeedTheirContainerAndACodec() {
        let demuxers: Set = ["application/ogg", "video/quicktime"]
        let decoders: Set = ["audio/x-vorbis", "audio/x-flac"]
        let types = SupportedMediaTypes.playable(canDemux: { demuxers.contains($0) }, canDecode: { decoders.contains($0) })
        #expect(types.contains("audio/ogg") && types.contains("audio/x-vorbis+ogg") && types.contains("audio/flac"))
        #expect(!types.contains("audio/x-opus+ogg")) // no Opus decoder
        #expect(!types.contains("audio/mp4")) // a demuxer, but no AAC or ALAC decoder
        #expect(!types.contains("audio/x-wav")) // no WAV parser
        #expect(types == types.sorted())
    }

    @Test func noGStreamerCapsNamesOrUnregisteredSpellings() {
        let all = SupportedMediaTypes.playable(canDemux: { _ in true }, canDecode: { _ in true })
        for name in ["audio/mp3", "audio/wav", "audio/x-flac", "audio/x-vorbis", "application/kate", "application/x-id3",
                     "application/vnd.ms-sstr+xml", "audio/x-m4a"] {
            #expect(!all.contains(name), "\(name) is not a canonical MIME type")
        }
        #expect(Set(all).count == all.count)
    }

    /// Servers send registered aliases (`audio/x-flac`), and Rygel's renderer refuses a type not listed exactly.
    @Test func theRegisteredAliasesOfPlayableTypesAreListedToo() {
        let aliases = SupportedMediaTypes.aliases(in: """
            audio/x-flac audio/flac
            audio/wav audio/x-wav
            audio/vnd.wave audio/x-wav
            audio/x-m4a audio/mp4
            audio/x-ogg audio/ogg
            video/avi video/x-msvideo
            not a line
            audio/x-flac
            audio/bad name audio/flac
            audio/é audio/flac
            /audio audio/flac
            flv-application/octet-stream video/x-flv
            audio/-dash audio/flac
            x-audio/flac audio/flac
            """)
        #expect(aliases == ["audio/flac": ["audio/x-flac"], "audio/x-wav": ["audio/wav", "audio/vnd.wave"],
                            "audio/mp4": ["audio/x-m4a"], "audio/ogg": ["audio/x-ogg"], "video/x-msvideo": ["video/avi"]])
        let demuxers: Set = ["application/ogg", "audio/x-wav"]
        let decoders: Set = ["audio/x-vorbis", "audio/x-flac"]
        let types = SupportedMediaTypes.playable(canDemux: { demuxers.contains($0) }, canDecode: { decoders.contains($0) },
                                                 aliases: aliases)
        for name in ["audio/flac", "audio/x-flac", "audio/x-wav", "audio/wav", "audio/vnd.wave", "audio/ogg", "audio/x-ogg"] {
            #expect(types.contains(name), "\(name) missing")
        }
        #expect(!types.contains("audio/x-m4a") && !types.contains("video/avi"), "aliases of types it cannot play stay out")
        #expect(types == types.sorted() && Set(types).count == types.count)
    }
}
