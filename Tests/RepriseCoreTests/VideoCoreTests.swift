import CoreTestDoubles
import Glibc
import PosixFiles
import Testing
@testable import RepriseCore

/// A temporary directory with `files` (name → contents), removed by the caller with `rm -r`.
private func directory(with files: [String: String]) throws -> String {
    var template = Array("/tmp/reprise-video-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw PlayerError.invalidArgument("mkdtemp failed") }
    let path = String(cString: made)
    for (name, text) in files {
        let file = fopen(path + "/" + name, "w")
        fputs(text, file)
        fclose(file)
    }
    return path
}

private func removeDirectory(_ path: String) {
    for name in PosixFileSystem().entries(of: path) ?? [] { unlink(path + "/" + name) }
    rmdir(path)
}

@Suite struct JSONValueTests {
    @Test func parsesObjectsArraysNumbersAndEscapes() {
        let text = #"{"a": [1, -2.5e1, true, false, null], "s": "q\"\\\/\n\u00e9\ud83c\udfb5", "o": {}}"#
        let value = JSONValue(parsing: Array(text.utf8))
        #expect(value?["a"] == .array([.number(1), .number(-25), .bool(true), .bool(false), .null]))
        #expect(value?["s"]?.string == "q\"\\/\né🎵")
        #expect(value?["o"] == .object([:]))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "\"raw\ncontrol\"", "01x", "[1] trailing", "\"\\ud800\"", "nul",
                      String(repeating: "[", count: 100) + String(repeating: "]", count: 100)])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(JSONValue(parsing: Array(text.utf8)) == nil)
    }

    @Test func invalidUTF8InStringsIsReplacedNotFatal() {
        let bytes: [UInt8] = Array("{\"t\": \"a".utf8) + [0xff, 0xfe] + Array("b\"}".utf8)
        #expect(JSONValue(parsing: bytes)?["t"]?.string == "a\u{FFFD}\u{FFFD}b")
    }
}

@Suite struct MediaSidecarTests {
    @Test func readsInfoAndInterstitialsBesideTheMedia() throws {
        let dir = try directory(with: ["film.webm": "", "film.reprise.json": """
            {"title": "The Film", "subtitle": "Part two", "description": "Two people talk.",
             "interstitials": [{"start": 30, "end": 40, "title": "Sponsor", "restrictions": ["noSkippingPast"],
                                "skippableAfter": 5},
                               {"start": 0, "end": 5, "restrictions": ["noSeekingWithin"]},
                               {"start": 9, "end": 3}]}
            """])
        defer { removeDirectory(dir) }
        var problems: [String] = []
        let sidecar = MediaSidecar.read(for: MediaURI.file(path: dir + "/film.webm"), in: PosixFileSystem()) { problems.append($0) }
        #expect(sidecar?.title == "The Film" && sidecar?.subtitle == "Part two" && sidecar?.description == "Two people talk.")
        #expect(sidecar?.interstitials == [
            Interstitial(startMicroseconds: 0, endMicroseconds: 5_000_000, forbidsSeekingWithin: true),
            Interstitial(title: "Sponsor", startMicroseconds: 30_000_000, endMicroseconds: 40_000_000, forbidsSkippingPast: true,
                         skippableAfterMicroseconds: 5_000_000),
        ])
        #expect(problems.count == 1 && problems[0].contains("interstitial 2"))
    }

    @Test func aBrokenSidecarIsReportedAndIgnored() throws {
        let dir = try directory(with: ["a.ogv": "", "a.reprise.json": "{\"title\": ", "b.ogv": ""])
        defer { removeDirectory(dir) }
        var problems: [String] = []
        #expect(MediaSidecar.read(for: MediaURI.file(path: dir + "/a.ogv"), in: PosixFileSystem()) { problems.append($0) } == nil)
        #expect(problems.count == 1 && problems[0].contains("not a JSON object"))
        #expect(MediaSidecar.read(for: MediaURI.file(path: dir + "/b.ogv"), in: PosixFileSystem()) == nil)
        #expect(MediaSidecar.read(for: "http://example.invalid/a.ogv", in: PosixFileSystem()) == nil)
    }

    @Test func findsSubtitleFilesExactNameFirstThenByLanguage() throws {
        let dir = try directory(with: ["talk.webm": "", "talk.fr.srt": "", "talk.en.vtt": "", "other.srt": ""])
        defer { removeDirectory(dir) }
        let media = MediaURI.file(path: dir + "/talk.webm")
        #expect(MediaSidecar.subtitleURI(for: media, in: PosixFileSystem()) == MediaURI.file(path: dir + "/talk.en.vtt"))
        #expect(MediaSidecar.subtitleLanguage(ofURI: MediaURI.file(path: dir + "/talk.en.vtt")) == "en")
        let exact = try directory(with: ["talk.webm": "", "talk.srt": "", "talk.en.srt": ""])
        defer { removeDirectory(exact) }
        #expect(MediaSidecar.subtitleURI(for: MediaURI.file(path: exact + "/talk.webm"), in: PosixFileSystem())
                == MediaURI.file(path: exact + "/talk.srt"))
        #expect(MediaSidecar.subtitleLanguage(ofURI: MediaURI.file(path: exact + "/talk.srt")) == nil)
    }
}

@Suite struct VideoLayoutTests {
    @Test(arguments: [(4.0 / 3, AspectMode.fit), (16.0 / 9, .fit), (2.0, .fill), (2.2, .fill), (2.39, .fill), (2.40, .fill),
                      (2.76, .fit), (0.5625, .fit)])
    func defaultModeFollowsThePlatformRule(ratio: Double, mode: AspectMode) {
        #expect(AspectMode.default(forAspectRatio: ratio) == mode)
    }

    @Test func fitLetterboxesAndPillarboxesWithoutStretching() {
        let pillar = VideoLayout(aspectRatio: 4.0 / 3, windowWidth: 854, windowHeight: 480, mode: .fit)
        #expect(pillar == VideoLayout(aspectRatio: 4.0 / 3, windowWidth: 854, windowHeight: 480, mode: .fit))
        #expect((pillar.width, pillar.height, pillar.visibleWidth) == (640, 480, 640))
        let letter = VideoLayout(aspectRatio: 2.39, windowWidth: 1280, windowHeight: 720, mode: .fit)
        #expect((letter.width, letter.height) == (1280, 536))
    }

    @Test func fillCoversTheWindowAndCropsEvenly() {
        let layout = VideoLayout(aspectRatio: 4.0 / 3, windowWidth: 1280, windowHeight: 720, mode: .fill)
        #expect((layout.width, layout.height) == (1280, 960))
        #expect((layout.cropTop, layout.cropBottom, layout.cropLeft, layout.cropRight) == (120, 120, 0, 0))
        #expect((layout.visibleWidth, layout.visibleHeight) == (1280, 720))
        let wide = VideoLayout(aspectRatio: 2.39, windowWidth: 1281, windowHeight: 720, mode: .fill)
        #expect(wide.visibleWidth == 1281 && wide.visibleHeight == 720 && wide.cropLeft + wide.cropRight == wide.width - 1281)
        #expect(VideoLayout(aspectRatio: .nan, windowWidth: 0, windowHeight: 0, mode: .fill).width >= 1)
    }

    @Test func windowsOpenAtThePicturesShapeWithinTheScreen() {
        #expect(naturalWindowSize(width: 320, height: 240, aspectRatio: 4.0 / 3) == (320, 240))
        #expect(naturalWindowSize(width: 1920, height: 1080, aspectRatio: 16.0 / 9) == (1280, 720))
        #expect(naturalWindowSize(width: 720, height: 576, aspectRatio: 16.0 / 9) == (1024, 576), "anamorphic: square pixels")
        #expect(naturalWindowSize(width: 3840, height: 1608, aspectRatio: 2.39) == (1280, 536))
        #expect(naturalWindowSize(width: 160, height: 90, aspectRatio: 16.0 / 9) == (320, 180))
        #expect(naturalWindowSize(width: 0, height: 0, aspectRatio: .nan).width == 320)
    }

    @Test func speedsStepThroughTheListAndConfigIsChecked() throws {
        let speeds = SpeedList()
        #expect(speeds.speeds == SpeedList.systemDefault)
        #expect(speeds.faster(than: 1) == 1.25 && speeds.slower(than: 1) == 0.5 && speeds.faster(than: 2) == nil)
        #expect(try SpeedList(config: "2, 0.75,1").speeds == [0.75, 1, 2])
        #expect(throws: PlayerError.self) { try SpeedList(config: "1, fast") }
        #expect(throws: PlayerError.self) { try SpeedList(config: "3") }
        #expect(try AudioSettings(config: "speeds = 1, 1.5").speeds.speeds == [1, 1.5])
    }

    @Test func loadingShowsOnlyAfterTwoSecondsOfBuffering() {
        var loading = LoadingState()
        loading.buffering(percent: 10, now: 100)
        #expect(!loading.isLoading(now: 101.9))
        loading.buffering(percent: 50, now: 101.5) // still buffering: the clock keeps running from the first report
        #expect(loading.isLoading(now: 102.1))
        loading.buffering(percent: 100, now: 102.2)
        #expect(!loading.isLoading(now: 110))
    }
}

@Suite struct InterstitialTests {
    let advert = Interstitial(title: "Ad", startMicroseconds: 30_000_000, endMicroseconds: 40_000_000,
                              forbidsSkippingPast: true, skippableAfterMicroseconds: 5_000_000)
    let intro = Interstitial(startMicroseconds: 0, endMicroseconds: 5_000_000, forbidsSeekingWithin: true)

    @Test func aSeekPastAnUnwatchedAdvertPlaysItFirstThenGoesOn() {
        var schedule = InterstitialSchedule([intro, advert])
        #expect(schedule.decideSeek(from: 10_000_000, to: 60_000_000) == .playInterstitialFirst(30_000_000))
        #expect(schedule.active(at: 31_000_000) == 1 && schedule.forbidsLeaving(at: 31_000_000))
        #expect(schedule.decideSeek(from: 31_000_000, to: 50_000_000) == .refuse("the interstitial \"Ad\" cannot be skipped"))
        #expect(schedule.advance(from: 39_900_000, to: 40_100_000) == 60_000_000)
        // Watched: it restricts nothing any more.
        #expect(schedule.decideSeek(from: 10_000_000, to: 60_000_000) == .allow(60_000_000))
        #expect(schedule.decideSeek(from: 10_000_000, to: 20_000_000) == .allow(20_000_000))
    }

    /// Two adverts between the position and a seek's target both play, earliest first, then the target.
    @Test func everyUnskippableAdvertBeforeTheTargetPlays() {
        let second = Interstitial(title: "Second", startMicroseconds: 50_000_000, endMicroseconds: 55_000_000,
                                  forbidsSkippingPast: true, skippableAfterMicroseconds: 2_000_000)
        var schedule = InterstitialSchedule([second, advert])
        #expect(schedule.decideSeek(from: 10_000_000, to: 90_000_000) == .playInterstitialFirst(30_000_000))
        #expect(schedule.advance(from: 39_900_000, to: 40_100_000) == 50_000_000)
        #expect(schedule.active(at: 50_500_000) == 0)
        // Skipped when allowed: the seek goes on to its target.
        #expect(schedule.skip(at: 52_500_000) == 90_000_000)
        #expect(schedule.decideSeek(from: 10_000_000, to: 95_000_000) == .allow(95_000_000))
    }

    @Test func noSeekingWithinRefusesSeeksWhileItPlays() {
        var schedule = InterstitialSchedule([intro])
        #expect(schedule.decideSeek(from: 1_000_000, to: 3_000_000) == .refuse("seeking is not allowed during the interstitial"))
        #expect(schedule.decideSeek(from: 1_000_000, to: 50_000_000) == .refuse("seeking is not allowed during the interstitial"))
        #expect(!schedule.forbidsLeaving(at: 1_000_000))
        _ = schedule.advance(from: 4_900_000, to: 5_100_000)
        #expect(schedule.decideSeek(from: 6_000_000, to: 2_000_000) == .allow(2_000_000))
    }

    @Test func theSkipControlAppearsAfterItsDelay() {
        var schedule = InterstitialSchedule([advert])
        #expect(!schedule.canSkip(at: 32_000_000) && schedule.skip(at: 32_000_000) == nil)
        #expect(schedule.timeUntilSkippable(at: 32_000_000) == 3_000_000)
        #expect(schedule.canSkip(at: 35_000_000) && !schedule.forbidsLeaving(at: 35_000_000))
        #expect(schedule.skip(at: 35_000_000) == 40_000_000)
        #expect(schedule.active(at: 36_000_000) == nil)
    }

    @Test func thePlayerAppliesTheRulesToSeekSetPositionAndNext() throws {
        let dir = try directory(with: ["a.ogv": "", "b.ogv": "", "a.reprise.json": """
            {"title": "Alpha", "subtitle": "sub", "interstitials": [{"start": 30, "end": 40, "title": "Ad",
             "restrictions": ["noSkippingPast", "noSeekingWithin"], "skippableAfter": 5}]}
            """])
        defer { removeDirectory(dir) }
        let engine = ScriptedEngine()
        let player = Player(engine: engine, log: Log(verbose: false), fileSystem: PosixFileSystem())
        player.enqueue([MediaURI.file(path: dir + "/a.ogv"), MediaURI.file(path: dir + "/b.ogv")])
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        #expect(player.announcedTrack?.title == "Alpha" && player.announcedTrack?.subtitle == "sub")
        let id = try #require(player.queue.current?.id)
        engine.position = 10_000_000
        player.setPosition(entryID: id, microseconds: 50_000_000)
        #expect(engine.requests.last == .seek(30_000_000))
        player.updateInterstitials()
        #expect(player.interstitialPlayback.active == 0 && player.announcedTrack?.activeInterstitial == "Ad")
        player.seek(by: 1_000_000)
        player.next()
        #expect(engine.requests.last == .seek(30_000_000) && player.queue.current?.id == id)
        #expect(throws: PlayerError.self) { try player.skipInterstitial() }
        engine.position = 36_000_000
        player.updateInterstitials()
        #expect(player.canSkipInterstitial)
        try player.skipInterstitial()
        #expect(engine.requests.last == .seek(50_000_000))
        engine.position = 50_000_000
        player.updateInterstitials()
        #expect(player.interstitialPlayback.active == nil && player.announcedTrack?.activeInterstitial == nil)
        player.next()
        #expect(engine.loads.last == MediaURI.file(path: dir + "/b.ogv"))
    }
}
