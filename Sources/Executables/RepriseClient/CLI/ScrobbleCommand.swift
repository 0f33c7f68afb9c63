import ArgumentParser
import Glibc
import RepriseCore

/// `reprise scrobble [on|off|status]`: listens sent to ListenBrainz (or Maloja, Koito…), the queue, the last error.
struct ScrobbleCommand: ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "scrobble",
        abstract: "Send listens to ListenBrainz (scrobble = listenbrainz in the config): on, off, or status (the queue, the last error).")
    @OptionGroup var target: TargetOptions
    @Argument(help: "on, off or status (the default)") var state: String?

    func validate() throws { try validateSwitch(state, alsoAccepting: ["status"]) }

    func run(with client: ServiceClient) throws {
        let scrobbling = client.scrobbling
        if let state, let on = AudioSettings.switchValue(state) { try scrobbling.set(enabled: on) }
        let enabled = try scrobbling.enabled, server = try scrobbling.server, queued = try scrobbling.queued
        let sent = try scrobbling.sent, dropped = try scrobbling.dropped, lastError = try scrobbling.lastError
        let lastSent = try scrobbling.lastSent, retryAt = try scrobbling.retryAt
        if target.json {
            return printJSON(.object([("enabled", .bool(enabled)), ("server", .string(server)), ("queued", .integer(Int64(queued))),
                                      ("sent", .integer(Int64(clamping: sent))), ("dropped", .integer(Int64(clamping: dropped))),
                                      ("lastError", lastError.isEmpty ? .null : .string(lastError)),
                                      ("lastSent", lastSent > 0 ? .integer(lastSent) : .null),
                                      ("retryAt", retryAt > 0 ? .integer(retryAt) : .null)]))
        }
        let now = Int64(time(nil))
        printLine("\(enabled ? "on" : "off"): \(server)")
        printLine("\(queued) waiting, \(sent) sent" + (dropped > 0 ? ", \(dropped) given up" : "")
                  + (lastSent > 0 ? ", last sent \(max(0, now - lastSent)) s ago" : ""))
        if !lastError.isEmpty { printLine("last error: \(lastError)") }
        if retryAt > 0 { printLine("next attempt in \(max(0, retryAt - now)) s") }
    }
}
