import Foundation
import Glibc
import PosixFiles
import TagLibKit
import Testing
import TestSupport

/// The tag reader processes TagLib runs in: the real `reprise-tag-reader` (built beside this test executable) reused,
/// replaced when gone and ended when idle; and stand-ins that hang or answer out of bounds, which are ended and not
/// believed (the file is then left to GStreamer).
@Suite struct TagReaderProcessesTests {
    let folder: String
    let tone: String

    init() throws {
        folder = try makeTemporaryFolder("tag-processes")
        tone = folder + "/tone.ogg"
        try generateTone(at: tone, seconds: 1, tags: "title=\"Asked\"", encoder: ["vorbisenc", "!", "oggmux"])
    }

    func read(_ processes: TagReaderProcesses) -> String?? {
        let descriptor = open(tone, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        var info = stat()
        fstat(descriptor, &info)
        return TagLibReader.read(descriptor: descriptor, size: Int64(info.st_size), fileExtension: "ogg", pictureLimit: 0,
                                 processes: processes).map { $0.tags.tags.title }
    }

    /// A stand-in reader: an executable script in the test's folder.
    func script(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<100 where !condition() { usleep(50_000) }
        return condition()
    }

    @Test func oneReaderIsReusedReplacedWhenKilledAndEndedWhenIdle() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let processes = TagReaderProcesses(path: ProcessArguments.sibling("reprise-tag-reader"), idleSeconds: 0.5)
        #expect(read(processes) == "Asked")
        let first = try #require(processes.idleProcessIDs.first)
        #expect(read(processes) == "Asked")
        #expect(processes.idleProcessIDs == [first] && processes.runningCount == 1)
        kill(first, SIGKILL)
        #expect(read(processes) == "Asked")
        #expect(processes.runningCount == 1 && processes.idleProcessIDs != [first])
        let second = try #require(processes.idleProcessIDs.first)
        #expect(waitUntil { processes.runningCount == 0 }, "an idle reader is ended")
        #expect(kill(second, 0) != 0 && errno == ESRCH, "and reaped")
    }

    /// Many files in one call: sent a window at a time, answered in order, an invalid file among them answered as
    /// such without disturbing the rest; a reader that is killed in the middle of a call is replaced.
    @Test func manyFilesAreAnsweredInOrder() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let junk = folder + "/junk.ogg"
        try Data("not an ogg".utf8).write(to: URL(fileURLWithPath: junk))
        let paths = (0..<70).map { $0 % 9 == 4 ? junk : tone }
        let descriptors = paths.map { open($0, O_RDONLY | O_CLOEXEC) }
        defer { descriptors.forEach { close($0) } }
        let files = zip(paths, descriptors).map { path, descriptor in
            var info = stat()
            fstat(descriptor, &info)
            return (descriptor, Int64(info.st_size), "ogg") as TagLibReader.File
        }
        let processes = TagReaderProcesses(path: ProcessArguments.sibling("reprise-tag-reader"))
        defer { processes.endIdle() }
        for round in 0..<2 {
            let reads = TagLibReader.read(files, pictureLimit: 0, processes: processes)
            #expect(reads.map { $0?.tags.tags.title } == paths.map { $0 == junk ? nil : "Asked" }, "round \(round)")
            #expect(processes.runningCount == 1)
            // The idle reader killed: the next call finds it gone and starts another.
            processes.idleProcessIDs.forEach { kill($0, SIGKILL) }
        }
    }

    @Test func aReaderThatHangsIsEndedAtItsTimeout() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let hanging = try script("hanging", "#!/bin/sh\nexec sleep 60\n")
        let processes = TagReaderProcesses(path: hanging, timeoutMilliseconds: 300)
        let started = Date()
        #expect(read(processes) == nil)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(processes.runningCount == 0)
    }

    /// A reader that claims a terabyte of tags, or sends back what it was sent, is not believed: nothing of that
    /// size is allocated, and the process is ended.
    @Test(arguments: ["huge", "echo"])
    func anAnswerOutOfBoundsIsNotBelieved(_ kind: String) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lying = try script("lying", kind == "echo" ? "#!/bin/sh\nexec cat >&0\n" : """
            #!/usr/bin/env python3
            import socket, struct
            connection = socket.socket(fileno=0)
            data, fds, flags, address = socket.recv_fds(connection, 72, 1)
            # status 0, rate, channels, bitrate, length, then 1 TiB of properties and no picture.
            connection.sendall(struct.pack("=iiiiqQQ40s", 0, 44100, 2, 128, 1000, 1 << 40, 0, b"image/png"))
            connection.recv(1)
            """)
        let processes = TagReaderProcesses(path: lying)
        #expect(read(processes) == nil)
        #expect(processes.runningCount == 0)
    }

    /// An MP3 whose 16 MiB ID3v2 tag is a million tiny TXXX frames (TagLib makes an object of each) once took the
    /// reader to 955 MiB: the reader's address space is bounded, so such a file is refused (its allocation fails and
    /// is caught) with the reader's peak memory far below that, and the next file is read as ever.
    @Test func aTagOfAMillionFramesIsBoundedInTheReader() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let audio = folder + "/audio.mp3", crafted = folder + "/crafted.mp3"
        try generateTone(at: audio, seconds: 1, tags: nil, encoder: ["lamemp3enc"])
        var tag = ID3v2.tag(ID3v2.tinyFrames(filling: 16 << 20))
        tag.append(try Data(contentsOf: URL(fileURLWithPath: audio)))
        try tag.write(to: URL(fileURLWithPath: crafted))

        let processes = TagReaderProcesses(path: ProcessArguments.sibling("reprise-tag-reader"))
        defer { processes.endIdle() }
        let descriptor = open(crafted, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        var info = stat()
        fstat(descriptor, &info)
        // The reader's peak memory, sampled while it reads (it ends after refusing the file).
        let sampling = ProcessPeak()
        let crafty = sampling.whileRunning { TagLibReader.read(descriptor: descriptor, size: Int64(info.st_size), fileExtension: "mp3",
                                                                pictureLimit: 0, processes: processes) }
        let peak = sampling.peakMiB
        #expect(crafty == nil, "\(String(describing: crafty?.tags.tags))")
        #expect(peak > 0 && peak < 400, "the reader peaked at \(peak) MiB")
        #expect(read(processes) == "Asked")

        // A real large tag under the same bound: a 15 MiB front cover and a title, both read.
        let cover = [UInt8](repeating: 0x5a, count: 15 << 20)
        var big = ID3v2.tag(ID3v2.frame("TIT2", [0] + Array("Big Cover".utf8)) + ID3v2.frame("APIC", [0] + Array("image/png".utf8) + [0, 3, 0] + cover))
        big.append(try Data(contentsOf: URL(fileURLWithPath: audio)))
        let covered = folder + "/covered.mp3"
        try big.write(to: URL(fileURLWithPath: covered))
        let bigDescriptor = open(covered, O_RDONLY | O_CLOEXEC)
        defer { close(bigDescriptor) }
        fstat(bigDescriptor, &info)
        let read = TagLibReader.read(descriptor: bigDescriptor, size: Int64(info.st_size), fileExtension: "mp3", pictureLimit: 16 << 20,
                                     processes: processes)
        #expect(read?.tags.tags.title == "Big Cover")
        #expect(read?.picture?.bytes.count == cover.count, "\(String(describing: read?.picture?.bytes.count))")
    }

    /// The highest resident memory of this test process's `reprise-tag-reader` children while a body runs.
    final class ProcessPeak: @unchecked Sendable {
        private let lock = NSLock()
        private var peak = 0.0
        private var running = true
        var peakMiB: Double { lock.withLock { peak } }

        func whileRunning<Result>(_ body: () -> Result) -> Result {
            let thread = Thread { [self] in
                while lock.withLock({ running }) {
                    for pid in Self.readers() {
                        let resident = residentMiB(of: pid, field: "VmHWM")
                        lock.withLock { peak = max(peak, resident) }
                    }
                    usleep(20_000)
                }
            }
            thread.start()
            let result = body()
            lock.withLock { running = false }
            usleep(50_000)
            return result
        }

        static func readers() -> [pid_t] {
            let me = getpid()
            return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }.filter { pid in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return false }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return stat.contains("(reprise-tag-rea") && fields.count > 1 && Int32(fields[1]) == me
            }
        }
    }

    @Test func aMissingReaderLeavesTheFileToGStreamer() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let processes = TagReaderProcesses(path: folder + "/not-there")
        #expect(read(processes) == nil)
        #expect(processes.runningCount == 0)
    }
}
