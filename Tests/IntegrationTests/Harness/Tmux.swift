import Foundation
import TestSupport
import Testing

/// A private tmux server (its own socket) running one command in a pane of a fixed size, for driving and
/// reading terminal programs. ``close()`` kills the server by PID.
final class Tmux {
    let socket = "reprise-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    private var serverPID: pid_t?
    /// Where the shell around the command writes its exit status.
    private let statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-status-\(UUID().uuidString)").path

    /// Starts `command` (run by the shell, with `environment` set) in a `columns`×`rows` pane that stays
    /// after the command exits, so its exit status can be read.
    init(_ command: [String], environment: [String: String], columns: Int = 100, rows: Int = 30) throws {
        let assignments = ["DBUS_SESSION_BUS_ADDRESS", "HOME", "XDG_RUNTIME_DIR", "PULSE_SERVER"]
            .compactMap { name in environment[name].map { "\(name)=\($0)" } }
        // A shell waits for the command and writes down its exit status (128 + signal for a crash).
        let wrapper = "\"$0\" \"$@\"; echo $? > \(statusFile)"
        let started = try runCommand("tmux", ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)",
                                              "-y", "\(rows)", "sh", "-c", wrapper, "env"] + assignments
                                              + ["TERM=xterm-256color"] + command)
        guard started.status == 0 else { throw HarnessError(message: "tmux: \(started.errors)") }
        _ = try runCommand("tmux", ["-L", socket, "set-option", "-g", "remain-on-exit", "on"])
        serverPID = pid_t(try runCommand("tmux", ["-L", socket, "display-message", "-p", "#{pid}"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The pane's text, one string per line.
    func screen() -> [String] {
        let captured = (try? runCommand("tmux", ["-L", socket, "capture-pane", "-p"]).output) ?? ""
        return captured.components(separatedBy: "\n")
    }

    func text() -> String { screen().joined(separator: "\n") }

    /// The pane's title (what an OSC 0/2 sequence written by the command would set).
    func title() -> String {
        ((try? runCommand("tmux", ["-L", socket, "display-message", "-p", "#{pane_title}"]).output) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends keys as tmux names them ("Space", "Left", "Tab", "Enter", "q").
    func send(_ keys: String...) {
        _ = try? runCommand("tmux", ["-L", socket, "send-keys"] + keys)
    }

    func resize(columns: Int, rows: Int) {
        _ = try? runCommand("tmux", ["-L", socket, "resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The command's exit status once it has exited (nil while it runs; 128 + N when signal N killed it).
    var exitStatus: Int? {
        (try? String(contentsOfFile: statusFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The command's process (the child of the pane's shell).
    var commandPID: pid_t? {
        guard let shell = pid_t((try? runCommand("tmux", ["-L", socket, "list-panes", "-F", "#{pane_pid}"]).output)?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }

    func close() {
        if let serverPID { kill(serverPID, SIGKILL) }
        try? FileManager.default.removeItem(atPath: statusFile)
    }
}

/// Expects the command in `tmux` to end with status 1 and to have said on standard error (written to `errors`) that
/// Reprise quit: what a client following the service does when the service goes.
func expectToldRepriseQuit(_ tmux: Tmux, errors: String, session: Session, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(session.waitFor { tmux.exitStatus != nil }, "\(tmux.text())", sourceLocation: sourceLocation)
    let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    #expect(tmux.exitStatus == 1 && said.contains("Reprise quit"), "\(String(describing: tmux.exitStatus)) \(said)",
            sourceLocation: sourceLocation)
}
