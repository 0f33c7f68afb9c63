import Foundation
import Glibc

/// A headless compositor that virtual input can be added to.
public protocol VirtualInputTarget: AnyObject {
    /// The Wayland socket's full path.
    var waylandDisplay: String { get }
    var log: String { get }
}

extension HeadlessSway: VirtualInputTarget {}

/// A pointer on a headless compositor (which has no input devices), and on KWin a touchscreen: the
/// `wl-virtual-input` tool, fed one command a line and waited for until the compositor has handled each.
/// Coordinates are the output's logical pixels. ``stop()`` ends it by PID.
public final class VirtualPointer {
    private let pid: pid_t
    private let commands: FileHandle
    private let answers: FileHandle

    /// Starts `tool` (the built `wl-virtual-input`) on `compositor`, whose layout is `width`×`height` logical pixels.
    public init(tool: String, on compositor: some VirtualInputTarget, width: Int, height: Int) throws {
        var toTool: [Int32] = [0, 0], fromTool: [Int32] = [0, 0]
        guard pipe(&toTool) == 0, pipe(&fromTool) == 0 else { throw HarnessError(message: "no pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toTool[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromTool[1], 1)
        for fd in toTool + fromTool { posix_spawn_file_actions_addclose(&actions, fd) }
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = compositor.waylandDisplay
        let words: [String] = [tool, String(width), String(height)]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let env: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            env.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, tool, &actions, nil, argv, env)
        close(toTool[0])
        close(fromTool[1])
        commands = FileHandle(fileDescriptor: toTool[1], closeOnDealloc: true)
        answers = FileHandle(fileDescriptor: fromTool[0], closeOnDealloc: true)
        guard result == 0 else { throw HarnessError(message: "cannot start \(tool): \(String(cString: strerror(result)))") }
        self.pid = pid
        guard readLine() == "ready" else {
            stop()
            throw HarnessError(message: "the virtual pointer did not start (\(compositor.log.suffix(500)))")
        }
    }

    private func readLine() -> String? {
        var line: [UInt8] = []
        while true {
            guard let byte = try? answers.read(upToCount: 1), let first = byte.first else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(first)
        }
    }

    @discardableResult
    private func send(_ command: String) -> Bool {
        commands.write(Data((command + "\n").utf8))
        return readLine() == "ok"
    }

    public func move(x: Int, y: Int) { send("move \(x) \(y)") }
    public func press(_ button: Int = 1) { send("press \(button)") }
    public func release(_ button: Int = 1) { send("release \(button)") }
    public func wheel(_ steps: Int) { send("wheel \(steps)") }

    /// Moves there, then presses and releases `count` times (a double click when two).
    public func click(x: Int, y: Int, count: Int = 1) {
        move(x: x, y: y)
        for _ in 0..<count {
            press()
            release()
        }
    }

    /// Presses at `from`, moves in steps to `to` and releases there.
    public func drag(from: (x: Int, y: Int), to: (x: Int, y: Int), steps: Int = 10) {
        move(x: from.x, y: from.y)
        press()
        usleep(300_000) // the compositor takes the window before the pointer goes
        for step in 1...steps {
            move(x: from.x + (to.x - from.x) * step / steps, y: from.y + (to.y - from.y) * step / steps)
            usleep(20_000)
        }
        release()
    }

    /// Finger `finger` touches (`x`, `y`), moves there, lifts (KWin only).
    public func touchDown(_ finger: Int = 0, x: Int, y: Int) { send("down \(finger) \(x) \(y)") }
    public func touchMove(_ finger: Int = 0, x: Int, y: Int) { send("motion \(finger) \(x) \(y)") }
    public func touchUp(_ finger: Int = 0) { send("up \(finger)") }

    /// One finger taps (`x`, `y`) `count` times (KWin only).
    public func tap(x: Int, y: Int, count: Int = 1) {
        for _ in 0..<count {
            touchDown(x: x, y: y)
            touchUp()
        }
    }

    /// One finger touches `from`, slides in steps to `to` and lifts there (KWin only).
    public func swipe(from: (x: Int, y: Int), to: (x: Int, y: Int), steps: Int = 10) {
        touchDown(x: from.x, y: from.y)
        for step in 1...steps {
            touchMove(x: from.x + (to.x - from.x) * step / steps, y: from.y + (to.y - from.y) * step / steps)
            usleep(20_000)
        }
        touchUp()
    }

    /// Ends the tool by PID (SIGKILL: the test process's blocked signals are the tool's too) and reaps it.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    private var stopped = false
}
