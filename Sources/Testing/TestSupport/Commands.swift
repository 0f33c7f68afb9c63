import Foundation
import Glibc

/// The result of a finished command.
public struct CommandResult {
    public let status: Int32
    public let output: String
    public let errors: String
    public var trimmed: String { output.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// A child process started with posix_spawn: unlike Foundation's Process, waiting for it does not
/// also wait for grandchildren (daemons that fork keep inherited descriptors open), and its signal
/// mask starts empty.
public struct Child {
    public let pid: pid_t
    public private(set) var exitStatus: Int32?

    /// Starts `tool` (looked up on PATH) with stdin from /dev/null and stdout/stderr appended to files.
    public static func spawn(_ tool: String, _ arguments: [String], environment: [String: String]?,
                      stdout: String, stderr: String) throws -> Child {
        try launch(tool, arguments, environment: environment) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
    }

    /// Starts `tool` with its stdin and stdout as pipes (returned: the end to write its input to, the end to read its
    /// output from; both close-on-exec here) and stderr appended to a file.
    public static func spawnPiped(_ tool: String, _ arguments: [String], environment: [String: String]? = nil,
                                  stderr: String) throws -> (child: Child, input: Int32, output: Int32) {
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { throw HarnessError(message: "pipe: \(errno)") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw HarnessError(message: "pipe: \(errno)")
        }
        for end in toChild + fromChild { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer {
            close(toChild[0])
            close(fromChild[1])
        }
        do {
            let child = try launch(tool, arguments, environment: environment) { actions in
                posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
                posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
                posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            }
            return (child, toChild[1], fromChild[0])
        } catch {
            close(toChild[1]); close(fromChild[0])
            throw error
        }
    }

    /// posix_spawnp with the descriptors `arrange` sets up, an empty signal mask and TERM, INT and PIPE at their defaults.
    private static func launch(_ tool: String, _ arguments: [String], environment: [String: String]?,
                               arrange: (inout posix_spawn_file_actions_t) -> Void) throws -> Child {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        arrange(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            env.forEach { free($0) }
        }
        var pid: pid_t = 0
        var result = posix_spawnp(&pid, tool, &actions, &attributes, argv, env)
        // A program the test has just copied (KWin's, say) may still be open for writing in a child another test's
        // thread forked meanwhile, until that child execs: exec then fails with ETXTBSY for a moment. Tried again.
        for _ in 0..<50 where result == ETXTBSY {
            usleep(20_000)
            result = posix_spawnp(&pid, tool, &actions, &attributes, argv, env)
        }
        guard result == 0 else { throw HarnessError(message: "cannot start \(tool): \(String(cString: strerror(result)))") }
        return Child(pid: pid)
    }

    /// Reaps the child if it has exited; true while it runs.
    public mutating func isRunning() -> Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
        return exitStatus == nil
    }

    /// Ends the child, if it runs, by its PID: SIGTERM first, so that it can clean up (an X server removes its lock
    /// and socket in /tmp), SIGKILL if it has not gone within `graceSeconds`; reaped either way.
    public mutating func terminate(graceSeconds: Double = 5) {
        guard isRunning() else { return }
        kill(pid, SIGTERM)
        if !eventually(graceSeconds, { !isRunning() }) { kill(pid, SIGKILL) }
        _ = wait()
    }

    /// Waits for the child to exit and returns its exit code (128 + signal when killed).
    public mutating func wait() -> Int32 {
        if exitStatus == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exitStatus = status
        }
        let status = exitStatus!
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// Runs `tool` (found on PATH, or a path) to completion and collects its output.
@discardableResult
public func runCommand(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> CommandResult {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-cmd-\(UUID().uuidString)").path
    defer {
        unlink(scratch + ".out")
        unlink(scratch + ".err")
    }
    var child = try Child.spawn(tool, arguments, environment: environment, stdout: scratch + ".out", stderr: scratch + ".err")
    let status = child.wait()
    return CommandResult(status: status,
                         output: (try? String(contentsOfFile: scratch + ".out", encoding: .utf8)) ?? "",
                         errors: (try? String(contentsOfFile: scratch + ".err", encoding: .utf8)) ?? "")
}

/// Polls `condition` until it holds or `seconds` pass (a guard against hangs, not a timing assertion).
public func eventually(_ seconds: Double = 20, pollEvery interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        if interval > 0 { Thread.sleep(forTimeInterval: interval) }
    }
    return try condition()
}

/// A harness step that failed (a daemon that would not start, media that could not be made…).
public struct HarnessError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// Seconds on the monotonic clock.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}

/// The resident memory of process `pid` in MiB (VmRSS); 0 when it cannot be read.
public func residentMiB(of pid: pid_t, field: String = "VmRSS") -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

/// Resident memory of `pid` that no file backs (heap, stacks, anonymous maps) in MiB: what a leak grows, where
/// `VmRSS` also counts libraries mapped once (a GStreamer plugin's decoders).
public func anonymousResidentMiB(of pid: pid_t) -> Double { residentMiB(of: pid, field: "RssAnon") }
