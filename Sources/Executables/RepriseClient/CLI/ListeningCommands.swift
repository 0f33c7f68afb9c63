import ArgumentParser
import MPRIS
import RepriseCore
import BusInterfaces
import SDBus

/// The chapters of what plays, as Reprise's chapters interface reports them.
struct ChapterReport {
    var chapters: [(title: String, start: Int64)]
    var current: Int?

    init(_ client: ServiceClient) throws {
        chapters = try client.chapters.chapters.map { ($0.title, $0.start) }
        let index = (try? client.chapters.current) ?? -1
        current = index >= 0 && Int(index) < chapters.count ? Int(index) : nil
    }
}

struct Chapters: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the chapters of what plays (▶ marks the current one).")
    @OptionGroup var target: TargetOptions

    func run() throws {
        try runVerb {
            let report = try ChapterReport(try target.client())
            if target.json {
                printJSON(.object([
                    ("current", report.current.map { .number(Double($0 + 1)) } ?? .null),
                    ("chapters", .array(report.chapters.enumerated().map { index, chapter in
                        .object([("number", .number(Double(index + 1))), ("title", .string(chapter.title)),
                                 ("start", .number(Double(chapter.start) / 1e6))])
                    })),
                ]))
                return
            }
            guard !report.chapters.isEmpty else { return printLine("no chapters") }
            for (index, chapter) in report.chapters.enumerated() {
                printLine("\(index == report.current ? "▶" : " ") \(index + 1). \(clock(chapter.start))  \(chapter.title)")
            }
        }
    }
}

struct ChapterCommand: ActionVerb {
    static let configuration = CommandConfiguration(
        commandName: "chapter",
        abstract: "Go to the next or previous chapter (previous restarts the current one when over 3 s into it), or to chapter N.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "next, previous, or a chapter number (from 1)") var which: String

    func validate() throws {
        guard ["next", "previous", "prev"].contains(which.lowercased()) || (Int(which).map { $0 >= 1 } ?? false) else {
            throw ValidationError("'\(TerminalText.sanitized(which))' is not next, previous or a chapter number")
        }
    }

    func act(on client: ServiceClient) throws {
        switch which.lowercased() {
        case "next": try client.chapters.next()
        case "previous", "prev": try client.chapters.previous()
        default: // validated: a number from 1; past UInt32 it is out of range like any missing chapter, and the service says so
            try client.chapters.goTo(index: UInt32(clamping: Int(which)! - 1))
        }
    }
}

struct ChapterSkip: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "With on, Next and Previous (media keys, a headset's buttons) step through the chapters of a chaptered track; no argument: show.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "on or off") var state: String?

    func validate() throws { try validateSwitch(state) }

    func run() throws {
        try showOrSwitch(target, key: "chapterSkip", word: state, set: { try $0.chapters.set(skip: $1) }) { try $0.chapters.skip }
    }
}

struct Sleep: ClientVerb {
    static let configuration = CommandConfiguration(
        abstract: "Fade out and pause after DURATION (90s, 30m, 1h; a plain number is minutes), at end-of-track or end-of-chapter; off cancels; no argument: what is left.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "90s, 30m, 1h, end-of-track, end-of-chapter or off") var when: String?

    func validate() throws { try validateWord(when) { word throws(PlayerError) in _ = try SleepRequest.parse(word) } }

    func run(with client: ServiceClient) throws {
        if let when {
            if (try? SleepRequest.parse(when)) == .off {
                try client.sleep.cancel()
            } else {
                try client.sleep.start(when: when)
            }
        }
        let timer = try client.sleep.timer
        let remaining = (try? client.sleep.remaining) ?? -1
        if target.json {
            printJSON(.object([("timer", .string(timer)),
                               ("remaining", remaining >= 0 ? .number(Double(remaining) / 1e6) : .null)]))
        } else {
            printLine(sleepText(timer: timer, remaining: remaining))
        }
    }
}

/// "off", or "pausing in 29:58" / "pausing at the end of this track (in 3:10)".
func sleepText(timer: String, remaining: Int64) -> String {
    let left = remaining >= 0 ? clock(remaining) : "?"
    switch timer {
    case "off": return "off"
    case "end-of-track": return "pausing at the end of this track (in \(left))"
    case "end-of-chapter": return "pausing at the end of this chapter (in \(left))"
    default: return "pausing in \(left)"
    }
}
