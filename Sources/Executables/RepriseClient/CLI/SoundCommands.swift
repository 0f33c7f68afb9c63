import ArgumentParser
import MPRIS
import RepriseCore
import BusInterfaces
import SDBus

/// What Reprise's sound interface says about ReplayGain, for `replaygain` and `status`.
struct ReplayGainReport {
    var mode: String
    var preamp: Double
    var fallback: Double
    var appliedGain: Double
    var appliedKind: String
    /// The gain comes from the library's measurement, not from tags.
    var measured: Bool
    var crossfade: Double

    /// Nil when the player has no such interface (another player). One round trip (GetAll).
    init?(_ client: ServiceClient) {
        guard let values = try? client.sound.allProperties(), let mode = values["ReplayGain"]?.stringValue else { return nil }
        self.mode = mode
        preamp = ReportedNumbers.finite(values["ReplayGainPreamp"]?.doubleValue)
        fallback = ReportedNumbers.finite(values["ReplayGainFallback"]?.doubleValue)
        appliedGain = ReportedNumbers.finite(values["AppliedGain"]?.doubleValue)
        appliedKind = values["AppliedGainKind"]?.stringValue ?? "none"
        measured = values["AppliedGainMeasured"] == .bool(true)
        crossfade = ReportedNumbers.finite(values["Crossfade"]?.doubleValue)
    }

    var json: JSON {
        .object([("mode", .string(mode)), ("preamp", .number(preamp)), ("fallback", .number(fallback)),
                 ("appliedGain", appliedKind == "none" ? .null : .number(appliedGain)), ("appliedKind", .string(appliedKind)),
                 ("measured", .bool(measured))])
    }

    /// "-6.0 dB (track)", "-4.0 dB (track, measured)", or "off" / "none" when nothing is applied.
    var appliedText: String {
        appliedKind == "none" ? (mode == "off" ? "off" : "none")
            : "\(ReportedNumbers.decibels(appliedGain)) (\(appliedKind)\(measured ? ", measured" : ""))"
    }
}

struct ReplayGain: ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "replaygain",
        abstract: "Show or set ReplayGain: off, track, album or auto, with a pre-amplification and a fallback gain.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "off, track, album or auto (album gain while an album plays in order)") var mode: String?
    // Unconditional: the value may be negative ("--preamp -3"), which the parser otherwise takes for an option.
    @Option(parsing: .unconditional, help: "dB added to every tagged track's gain (-15 to 15).") var preamp: String?
    @Option(parsing: .unconditional, help: "dB for tracks without ReplayGain tags (-15 to 15).") var fallback: String?

    func validate() throws {
        do throws(PlayerError) {
            if let mode { _ = try ReplayGainSettings.mode(named: mode) }
            if let preamp { _ = try ReplayGainSettings.decibels(preamp, for: "--preamp") }
            if let fallback { _ = try ReplayGainSettings.decibels(fallback, for: "--fallback") }
        } catch {
            throw ValidationError(TerminalText.sanitized(error.message))
        }
    }

    func run(with client: ServiceClient) throws {
        if let mode { try client.sound.set(replayGain: mode.lowercased()) }
        if let preamp, let value = try? ReplayGainSettings.decibels(preamp, for: "--preamp") {
            try client.sound.set(replayGainPreamp: value)
        }
        if let fallback, let value = try? ReplayGainSettings.decibels(fallback, for: "--fallback") {
            try client.sound.set(replayGainFallback: value)
        }
        guard let report = ReplayGainReport(client) else { throw CLIError("\(client.destination) has no ReplayGain") }
        if target.json {
            printJSON(report.json)
        } else {
            printLine("\(report.mode)   preamp \(ReportedNumbers.decibels(report.preamp))   fallback \(ReportedNumbers.decibels(report.fallback))"
                      + "   applied \(report.appliedText)")
        }
    }
}

struct Crossfade: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or set the crossfade between tracks: SECONDS (0.5 to 12) or off.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "seconds (0.5 to 12) or off") var seconds: String?

    func validate() throws { try validateWord(seconds) { word throws(PlayerError) in _ = try CrossfadeSettings.seconds(word) } }

    func run() throws {
        let change = seconds.flatMap { try? CrossfadeSettings.seconds($0) }.map { value in
            { (client: ServiceClient) in try client.sound.set(crossfade: value) }
        }
        try showOrSet(target, key: "crossfade", change: change, read: { client in
            guard let current = try? client.sound.crossfade else { throw CLIError("\(client.destination) has no crossfade") }
            return ReportedNumbers.finite(current)
        }, json: JSON.number) { $0 > 0 ? "\($0) s" : "off" }
    }
}

struct EqualizerCommand: ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "eq",
        abstract: "The equalizer: off, on, a preset (flat, bass, treble, vocal, loudness, or your own), or BAND=DB pairs (bands 31 62 125 250 500 1k 2k 4k 8k 16k, -12 to 12 dB); no argument: show.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "off, on, a preset's name, or BAND=DB …") var request: [String] = []

    func validate() throws {
        guard request.contains(where: { $0.contains("=") }) else {
            guard request.count <= 1 else { throw ValidationError("give one of off, on, a preset's name — or BAND=DB pairs") }
            return
        }
        var check = Equalizer()
        do throws(PlayerError) { try check.apply(request) } catch { throw ValidationError(TerminalText.sanitized(error.message)) }
    }

    func run(with client: ServiceClient) throws {
        let sound = client.sound
        if request.contains(where: { $0.contains("=") }) {
            var gains = try sound.equalizerGains
            guard gains.count == Equalizer.frequencies.count else { throw CLIError("\(client.destination) has no equalizer") }
            for word in request {
                let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
                if let band = Equalizer.bandIndex(parts[0]), let gain = try? Equalizer.gain(parts[1], for: word) { gains[band] = gain }
            }
            try sound.set(equalizerGains: gains)
        } else if let word = request.first {
            try sound.set(equalizer: word)
        }
        let state = try sound.equalizer, gains = try sound.equalizerGains
        if target.json {
            printJSON(.object([("equalizer", .string(state)),
                               ("gains", .object(zip(Equalizer.bandNames, gains).map { ($0.0, .number($0.1)) })),
                               ("presets", .array(((try? sound.equalizerPresets) ?? []).map(JSON.string)))]))
            return
        }
        printLine(state)
        printLine(zip(Equalizer.bandNames, gains).map { "\($0.0):\(Self.signed($0.1))" }.joined(separator: "  "))
    }

    /// "+6", "-4.5", "0".
    static func signed(_ value: Double) -> String {
        let text = value == value.rounded() ? String(Int(value)) : String(value)
        return value > 0 ? "+" + text : text
    }
}

