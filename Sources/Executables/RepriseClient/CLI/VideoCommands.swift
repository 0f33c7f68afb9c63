import ArgumentParser
import RepriseCore
import MPRIS
import BusInterfaces
import SDBus

/// `reprise video`: the video state (window, aspect, streams, speeds, interstitials), and the verbs that change it.
struct Video: ClientVerb {
    static let configuration = CommandConfiguration(
        abstract: "Show the video state, or change it.",
        discussion: """
            video                      what plays: window, aspect mode, audio and subtitle tracks, speeds, interstitials
            video fullscreen on|off|toggle
            video aspect fit|fill|toggle
            video audio N              play audio track N (see the list)
            video subtitles N|off      show subtitle track N, or none
            video skip                 skip the interstitial playing now (once its skip delay has passed)
            """)
    @OptionGroup var target: TargetOptions
    @Argument(help: "fullscreen, aspect, audio, subtitles or skip (none: show the state)") var action: String?
    /// Gathered as "all unrecognised" so that a negative number ("subtitles -1": none) is a value, not an option.
    @Argument(parsing: .allUnrecognized, help: "The value for the action.") var values: [String] = []
    var value: String? { values.first }

    func validate() throws {
        guard values.count <= 1 else { throw ValidationError("one value, not '\(TerminalText.sanitized(values.joined(separator: " ")))'") }
        switch action {
        case nil, "skip": break
        case "fullscreen", "aspect", "audio", "subtitles":
            guard value != nil else { throw ValidationError("`video \(TerminalText.sanitized(action!))` needs a value") }
        default: throw ValidationError("unknown video action '\(TerminalText.sanitized(action!))' (fullscreen, aspect, audio, subtitles, skip)")
        }
    }

    func run(with client: ServiceClient) throws {
        let video = client.video
        do {
            switch (action, value) {
            case ("fullscreen", let value?):
                let on = value == "toggle" ? try !video.fullscreen : try parseSwitch(value)
                try video.setFullscreen(fullscreen: on)
            case ("aspect", let value?):
                var mode = value
                if value == "toggle" { mode = try video.aspectMode == "fit" ? "fill" : "fit" }
                try video.setAspectMode(mode: mode)
            case ("audio", let value?):
                guard let index = Int32(value) else { throw CLIError("audio takes a track number", status: 2) }
                try video.selectAudioTrack(index: index)
            case ("subtitles", let value?):
                guard let index = value == "off" ? -1 : Int32(value) else { throw CLIError("subtitles takes a track number or off", status: 2) }
                try video.selectSubtitleTrack(index: index)
            case ("skip", _):
                try video.skipInterstitial()
            default:
                break
            }
        } catch let error as CLIError {
            throw CLIError(error.description, status: 2)
        } catch let error as DBusError {
            throw CLIError(error.message, status: 2)
        }
        try show(client)
    }

    private func show(_ client: ServiceClient) throws {
        let video = client.video
        let hasVideo = try video.hasVideo, fullscreen = try video.fullscreen
        let aspect = try video.aspectMode, ratio = try video.aspectRatio
        let audio = try video.audioTracks, subtitles = try video.subtitleTracks
        let audioTrack = try video.audioTrack, subtitleTrack = try video.subtitleTrack, interstitial = try video.activeInterstitial
        let speeds = try video.speeds, loading = try video.loading, canSkip = try video.canSkipInterstitial
        if target.json {
            func list(_ tracks: [StreamEntry]) -> JSON {
                .array(tracks.map { .object([("index", .integer(Int64($0.index))), ("language", .string($0.language)),
                                             ("title", .string($0.title)), ("codec", .string($0.codec)), ("external", .bool($0.external))]) })
            }
            printJSON(.object([
                ("hasVideo", .bool(hasVideo)), ("fullscreen", .bool(fullscreen)), ("aspectMode", .string(aspect)),
                ("aspectRatio", .number(ratio)), ("audioTracks", list(audio)), ("audioTrack", .integer(Int64(audioTrack))),
                ("subtitleTracks", list(subtitles)), ("subtitleTrack", .integer(Int64(subtitleTrack))),
                ("speeds", .array(speeds.map(JSON.number))), ("loading", .bool(loading)),
                ("activeInterstitial", .integer(Int64(interstitial))), ("canSkipInterstitial", .bool(canSkip)),
            ]))
            return
        }
        guard hasVideo else {
            printLine("no video")
            return
        }
        printLine("video \(ratio > 0 ? String(format2(ratio)) + ":1" : "") \(aspect)\(fullscreen ? ", fullscreen" : "")\(loading ? ", loading" : "")")
        for track in audio {
            printLine("\(track.index == audioTrack ? "*" : " ") audio \(track.index)\t\(track.title)\t\(track.language)\t\(track.codec)")
        }
        for track in subtitles {
            printLine("\(track.index == subtitleTrack ? "*" : " ") subtitles \(track.index)\t\(track.title)\t\(track.language)"
                  + (track.external ? "\t(file)" : ""))
        }
        if subtitles.isEmpty { printLine("  no subtitles") } else if subtitleTrack < 0 { printLine("  subtitles off") }
        printLine("speeds: " + speeds.map(format2).joined(separator: " "))
        if interstitial >= 0 { printLine("interstitial \(interstitial) playing" + (canSkip ? " (skippable: reprise video skip)" : "")) }
    }
}

/// `1.78`, `0.5`, `2`: up to two decimals, without trailing zeros.
private func format2(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e9 else { return "–" }
    var text = String(Double((value * 100).rounded()) / 100)
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// `reprise pip [on|off|toggle]`: Picture in Picture — the video in a small window above the others.
struct PictureInPictureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pip",
        abstract: "Picture in Picture: the video goes on in a small window above the others (on, off, toggle); no argument: show.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "on, off or toggle") var state: String?

    func validate() throws { try validateSwitch(state, alsoAccepting: ["toggle"]) }

    func run() throws {
        let change = state.map { state in
            { (client: ServiceClient) in
                let video = client.video
                guard try video.hasVideo else { throw CLIError("no video is playing") }
                let on = state == "toggle" ? !(try video.pictureInPicture) : AudioSettings.switchValue(state)!
                try video.set(pictureInPicture: on)
            }
        }
        try showOrSet(target, key: "pictureInPicture", change: change, read: { try $0.video.pictureInPicture }, json: JSON.bool) {
            $0 ? "on" : "off"
        }
    }
}
