@testable import RepriseCore
import Testing

/// When a listen counts (heard time, not position), the queue of listens and its file read back as hostile input,
/// and what ListenBrainz's answers mean for sending.
@Suite struct ScrobbleTests {
    static let song = ListenTracker.Play(entryID: 1, artist: "Artist", title: "Song", album: "Album", trackNumber: 3,
                                         lengthMicroseconds: 200_000_000)

    /// A player as the tracker sees it: the position moves with the time while sounding, at the rate.
    struct Simulated {
        var tracker = ListenTracker()
        var position = 0.0
        var last: (play: ListenTracker.Play?, sounding: Bool, rate: Double, now: Double)?

        mutating func step(_ play: ListenTracker.Play?, sounding: Bool = true, rate: Double = 1, at now: Double,
                           seekingTo seek: Double? = nil) -> [ListenTracker.Event] {
            if let last {
                if last.play != nil, last.play?.entryID == play?.entryID, last.play?.restarts == play?.restarts {
                    if last.sounding { position += (now - last.now) * last.rate }
                } else {
                    position = 0
                }
            }
            if let seek { position = seek }
            last = (play, sounding, rate, now)
            return tracker.update(play: play, sounding: sounding, rate: rate, positionMicroseconds: Int64(position * 1e6), now: now,
                                  wallClock: 1_700_000_000 + Int64(now))
        }

        func secondsUntilListen(now: Double) -> Double? { tracker.secondsUntilListen(now: now) }
    }

    /// Feeds the simulated player one update and returns the tracker's events.
    func step(_ tracker: inout Simulated, _ play: ListenTracker.Play?, sounding: Bool = true, rate: Double = 1,
              at now: Double, seekingTo seek: Double? = nil) -> [ListenTracker.Event] {
        tracker.step(play, sounding: sounding, rate: rate, at: now, seekingTo: seek)
    }

    @Test func aListenCountsAfterHalfItsLengthHeard() {
        var tracker = Simulated()
        let start = step(&tracker, Self.song, at: 0)
        let expected = Listen(artist: "Artist", title: "Song", album: "Album", durationMilliseconds: 200_000,
                              trackNumber: 3, listenedAt: 1_700_000_000)
        #expect(start == [.playingNow(expected)])
        #expect(tracker.secondsUntilListen(now: 10) == 90)
        #expect(step(&tracker, Self.song, at: 99.9).isEmpty)
        #expect(step(&tracker, Self.song, at: 100) == [.listen(expected)])
        #expect(step(&tracker, Self.song, at: 150).isEmpty, "counted once")
        #expect(tracker.secondsUntilListen(now: 150) == nil)
    }

    @Test func fourMinutesAreEnoughForALongTrack() {
        var tracker = Simulated()
        var long = Self.song
        long.lengthMicroseconds = 3_600_000_000
        _ = step(&tracker, long, at: 0)
        #expect(tracker.secondsUntilListen(now: 0) == 240)
        #expect(step(&tracker, long, at: 240).count == 1)
    }

    @Test func pausedAndSkippedTimeDoesNotCount() {
        var tracker = Simulated()
        _ = step(&tracker, Self.song, at: 0)
        _ = step(&tracker, Self.song, sounding: false, at: 60) // paused after 60 s heard
        #expect(step(&tracker, Self.song, sounding: false, at: 500).isEmpty, "an hour paused is not listening")
        _ = step(&tracker, Self.song, at: 500)
        #expect(tracker.secondsUntilListen(now: 500) == 40)
        // A seek forward is not listening: the 100 s skipped count nothing.
        #expect(step(&tracker, Self.song, at: 510, seekingTo: 170).isEmpty)
        #expect(step(&tracker, Self.song, at: 539).isEmpty)
        #expect(step(&tracker, Self.song, at: 540).count == 1)
    }

    @Test func atTwiceTheRateHalfTheTimeIsEnough() {
        var tracker = Simulated()
        _ = step(&tracker, Self.song, rate: 2, at: 0)
        #expect(tracker.secondsUntilListen(now: 0) == 50)
        #expect(step(&tracker, Self.song, rate: 2, at: 50).count == 1)
    }

    @Test func shortTracksAndSkippedTracksAreNeverListens() {
        var tracker = Simulated()
        var short = Self.song
        short.lengthMicroseconds = 29_000_000
        #expect(step(&tracker, short, at: 0).isEmpty, "not even playing now")
        #expect(step(&tracker, short, at: 29).isEmpty)
        #expect(step(&tracker, nil, at: 30).isEmpty)
        var next = Self.song
        next.entryID = 2
        _ = step(&tracker, next, at: 40)
        var third = Self.song
        third.entryID = 3
        let events = step(&tracker, third, at: 130) // skipped after 90 of the 100 s needed
        #expect(events.count == 1 && { if case .playingNow = events[0] { true } else { false } }())
    }

    @Test func unnamedTracksWaitForTheirTags() {
        var tracker = Simulated()
        var unnamed = Self.song
        unnamed.artist = nil
        #expect(step(&tracker, unnamed, at: 0).isEmpty)
        #expect(tracker.secondsUntilListen(now: 0) == nil)
        let named = step(&tracker, Self.song, at: 1)
        #expect(named.count == 1, "the tags came: playing now, started when listening began")
        #expect(step(&tracker, Self.song, at: 100).first == .listen(Listen(artist: "Artist", title: "Song", album: "Album",
                                                                           durationMilliseconds: 200_000, trackNumber: 3,
                                                                           listenedAt: 1_700_000_000)))
    }

    @Test func aLoopedTrackIsAnotherListen() {
        var tracker = Simulated()
        _ = step(&tracker, Self.song, at: 0)
        #expect(step(&tracker, Self.song, at: 100).count == 1)
        var again = Self.song
        again.restarts = 1
        #expect(step(&tracker, again, at: 200).count == 1, "playing now again")
        let second = step(&tracker, again, at: 300)
        #expect(second == [.listen(Listen(artist: "Artist", title: "Song", album: "Album", durationMilliseconds: 200_000,
                                          trackNumber: 3, listenedAt: 1_700_000_200))])
    }

    @Test func aRadioTitleHeardFromItsStartCountsWhenTheNextBegins() {
        var tracker = Simulated()
        func title(_ artist: String, _ title: String) -> ListenTracker.Play {
            ListenTracker.Play(entryID: 7, artist: artist, title: title, lengthMicroseconds: nil, isStream: true)
        }
        _ = step(&tracker, title("On", "Air"), at: 0)
        // Tuned in during this one: where it began is unknown, so it counts only after 4 minutes.
        #expect(step(&tracker, title("A", "First"), at: 100).map { if case .listen = $0 { 1 } else { 0 } }.reduce(0, +) == 0)
        let ended = step(&tracker, title("B", "Second"), at: 280)
        #expect(ended.first == .listen(Listen(artist: "A", title: "First", listenedAt: 1_700_000_100)))
        #expect(step(&tracker, title("C", "Third"), at: 300).count == 1, "20 s of B is not a listen; C is playing now")
        #expect(step(&tracker, title("C", "Third"), at: 540).first == .listen(Listen(artist: "C", title: "Third", listenedAt: 1_700_000_300)))
    }

    @Test func theQueueKeepsEachListenOnceAndTheNewestWhenFull() {
        var queue = ListenQueue(capacity: 3)
        for at in 0..<5 { queue.add(Listen(artist: "A", title: "T", listenedAt: Listen.earliestListenedAt + Int64(at))) }
        let repeated = queue.add(Listen(artist: "A", title: "T", listenedAt: Listen.earliestListenedAt + 4))
        #expect(!repeated)
        #expect(queue.listens.map(\.listenedAt) == [2, 3, 4].map { Listen.earliestListenedAt + $0 })
        #expect(queue.dropped == 2)
        queue.remove(queue.first(2))
        #expect(queue.count == 1)
        let again = queue.add(Listen(artist: "A", title: "T", listenedAt: Listen.earliestListenedAt + 2))
        #expect(again, "sent, so it may come again")
    }

    @Test func theQueueFileReadsBackAndHostileLinesAreRefused() {
        var queue = ListenQueue()
        let first = Listen(artist: "Ärtist \"quoted\"\n", title: "Tïtle\u{1B}[2J", album: "Album", durationMilliseconds: 31_000,
                           trackNumber: 2, listenedAt: 1_700_000_000)
        queue.add(first)
        queue.add(Listen(artist: "B", title: "C", listenedAt: 1_700_000_100))
        let text = queue.fileText
        #expect(!text.contains("\u{1B}"), "escaped in the file")
        let hostile = text + text + "{\"listened_at\": 1e400}\n" + "not json\n" + String(repeating: "[", count: 100_000) + "\n"
            + "{\"listened_at\":12,\"track_metadata\":{\"artist_name\":\"A\",\"track_name\":\"B\"}}\n"
            + "{\"listened_at\":1700000000.5,\"track_metadata\":{\"artist_name\":\"A\",\"track_name\":\"B\"}}\n"
            + "{\"listened_at\":1700000000,\"track_metadata\":{\"artist_name\":\"\",\"track_name\":\"B\"}}\n"
            + String(text.prefix(40)) // a torn last line
        let (read, refused) = ListenQueue.reading(Array(hostile.utf8))!
        #expect(read.listens == queue.listens)
        #expect(refused == 7)
    }

    /// A file of more listens than the queue holds is read in time linear in its size (120,000 listens took 11.6 s
    /// with a `removeFirst` per listen over the capacity): the newest are kept, the rest counted as dropped; a read
    /// asked to stop stops.
    @Test func aQueueFileLargerThanTheQueueIsReadInLinearTime() throws {
        let lines = (0..<120_000).map {
            ListenQueue.line(for: Listen(artist: "A", title: "T\($0)", listenedAt: Listen.earliestListenedAt + Int64($0)))
        }
        let bytes = Array(lines.joined().utf8)
        let (queue, refused) = try #require(ListenQueue.reading(bytes))
        #expect(refused == 0 && queue.count == ListenQueue.defaultCapacity && queue.dropped == 70_000)
        #expect(queue.listens.first?.listenedAt == Listen.earliestListenedAt + 70_000)
        #expect(queue.listens.last?.title == "T119999")
        var asked = 0
        #expect(ListenQueue.reading(bytes, isCancelled: { asked += 1; return asked > 2 }) == nil)
        #expect(asked == 3, "asked every thousand lines, stopped at once")
    }

    /// Random queue files, mostly JSON's own alphabet and pieces of real lines: never a trap, every listen read back
    /// valid and unique, each written line still read.
    @Test func randomQueueFilesAreAlwaysHandled() {
        var generator = SystemRandomNumberGenerator()
        let valid = ListenQueue.line(for: Listen(artist: "A", title: "T", durationMilliseconds: 31_000, listenedAt: 1_700_000_000))
        let alphabet = Array("{}[]\":,.-+0123456789eE truefalsnul\\u\n".utf8) + Array(valid.utf8) + [0xFF, 0xC3, 0x00, 0x1B]
        for round in 0..<2_000 {
            let count = Int.random(in: 0...(round % 10 == 0 ? 20_000 : 400), using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! } + [10] + Array(valid.utf8)
            let (queue, _) = ListenQueue.reading(bytes)!
            #expect(queue.listens.contains { $0.listenedAt == 1_700_000_000 && $0.artist == "A" })
            #expect(Set(queue.listens.map(\.key)).count == queue.count)
            #expect(queue.listens.allSatisfy { !$0.artist.isEmpty && !$0.title.isEmpty && $0.listenedAt >= Listen.earliestListenedAt })
        }
    }

    @Test func requestBodies() throws {
        let listen = Listen(artist: "A", title: "T", album: "L", durationMilliseconds: 1_000, listenedAt: 1_700_000_000)
        let now = try #require(JSONValue(parsing: Array(ListenBrainz.playingNowBody(listen, version: "9").utf8)))
        #expect(now["listen_type"]?.string == "playing_now")
        #expect(now["payload"]?.array?.first?["listened_at"] == nil)
        #expect(now["payload"]?.array?.first?["track_metadata"]?["additional_info"]?["media_player"]?.string == "Reprise")
        let one = try #require(JSONValue(parsing: Array(ListenBrainz.submitBody([listen]).utf8)))
        let item = try #require(one["payload"]?.array?.first)
        #expect(one["listen_type"]?.string == "single" && Listen(json: item) == listen)
        let two = try #require(JSONValue(parsing: Array(ListenBrainz.submitBody([listen, listen]).utf8)))
        #expect(two["listen_type"]?.string == "import" && two["payload"]?.array?.count == 2)
        #expect(ListenBrainz.submitURL(base: "http://127.0.0.1:9/apis/listenbrainz/") == "http://127.0.0.1:9/apis/listenbrainz/1/submit-listens")
        #expect(ListenBrainz.isValidBase("https://api.listenbrainz.org") && !ListenBrainz.isValidBase("file:///etc/passwd")
                && !ListenBrainz.isValidBase("http:///x") && !ListenBrainz.isValidBase("http://a b"))
    }

    @Test func whatAnswersMean() {
        let ok = Array("{\"status\":\"ok\"}".utf8)
        #expect(ListenBrainz.outcome(status: 200, headers: [], body: ok) == .accepted)
        #expect(ListenBrainz.outcome(status: 200, headers: [], body: Array("<html>".utf8))
                == .retry(afterSeconds: nil, reason: "the server answered 200 without status ok"))
        #expect(ListenBrainz.outcome(status: 401, headers: [], body: Array("{\"code\":401,\"error\":\"Bad\\u001b token\"}".utf8))
                == .tokenRefused(reason: "token refused (401): Bad token"))
        #expect(ListenBrainz.outcome(status: 400, headers: [], body: []) == .listensRefused(reason: "listens refused (400)"))
        #expect(ListenBrainz.outcome(status: 429, headers: [("X-RateLimit-Reset-In", "7")], body: [])
                == .retry(afterSeconds: 7, reason: "rate limited (429)"))
        #expect(ListenBrainz.outcome(status: 429, headers: [("x-ratelimit-reset-in", "1e308")], body: [])
                == .retry(afterSeconds: ListenBrainz.longestWaitSeconds, reason: "rate limited (429)"))
        #expect(ListenBrainz.outcome(status: 500, headers: [], body: []) == .retry(afterSeconds: nil, reason: "the server answered 500"))
        #expect(ListenBrainz.rateLimitWait([("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset-In", "3")]) == 3)
        #expect(ListenBrainz.rateLimitWait([("X-RateLimit-Remaining", "5"), ("X-RateLimit-Reset-In", "3")]) == nil)
        #expect(ListenBrainz.rateLimitWait([("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset-In", "-3")]) == nil)
        var backoff = ScrobbleBackoff()
        var waits: [Double] = []
        for _ in 0..<9 { waits.append(backoff.failed()) }
        #expect(waits == [5, 10, 20, 40, 80, 160, 320, 600, 600])
        backoff.succeeded()
        #expect(backoff.failed() == 5)
        // A wait the server names is a floor under the backoff, never a way around it ("retry in 0 s" was taken
        // at its word: hundreds of requests a second).
        var named = ScrobbleBackoff()
        #expect(named.failed(serverWait: 0) == 5 && named.failed(serverWait: 0.0001) == 10 && named.failed(serverWait: nil) == 20)
        #expect(named.failed(serverWait: 900) == 900 && named.failed(serverWait: 1e300) == ListenBrainz.longestWaitSeconds)
        #expect(named.failed(serverWait: -.infinity) == 160 && named.failed(serverWait: .nan) == 320)
    }

    @Test func settings() throws {
        let settings = try AudioSettings(config: """
            scrobble = listenbrainz
            listenbrainz-url = http://127.0.0.1:42010/apis/listenbrainz
            listenbrainz-token-file = ~/.config/reprise/token
            """)
        #expect(settings.scrobble.enabled && settings.scrobble.url == "http://127.0.0.1:42010/apis/listenbrainz")
        #expect(settings.scrobble.tokenFile == "~/.config/reprise/token")
        #expect(throws: PlayerError.self) { try AudioSettings(config: "scrobble = lastfm") }
        #expect(throws: PlayerError.self) { try AudioSettings(config: "listenbrainz-url = ftp://x") }
        #expect(throws: PlayerError.self) { try AudioSettings(config: "listenbrainz-token-file = token") }
    }
}
