import RepriseCore
import Testing

/// `snapcast-pipe` and `snapcast-sampleformat`: what the config may say, and the pipe sink they make.
struct SnapcastSettingsTests {
    @Test func aPipeAndAFormatMakeThePipeSinksArguments() throws {
        let settings = try AudioSettings(config: "snapcast-pipe = /tmp/snap fifo\nsnapcast-sampleformat = 44100:24:2\n").snapcast
        #expect(settings.pipe == "/tmp/snap fifo")
        #expect(settings.pipeSinkArguments(path: "/tmp/snap fifo")
            == "file=\"/tmp/snap fifo\" sink_name=reprise_snapcast format=s24le rate=44100 channels=2 sink_properties=device.description=Snapcast")
        #expect(try AudioSettings(config: "").snapcast == SnapcastSettings())
        #expect(try AudioSettings(config: "snapcast-pipe = off").snapcast.pipe == nil)
        #expect(SnapcastSettings().rate == 48000 && SnapcastSettings().bits == 16) // snapserver's default
    }

    @Test func outputDelaysAreMillisecondsByOutputName() throws {
        let settings = try AudioSettings(config: "output-delay-raop_sink = 2000\noutput-delay-reprise_snapcast = 900\n")
        #expect(settings.outputDelays == ["raop_sink": 2000, "reprise_snapcast": 900])
        for refused in ["output-delay-a b = 10", "output-delay-x = -1", "output-delay-x = 60001", "output-delay-x = soon", "output-delay-x\"y = 5"] {
            #expect(throws: PlayerError.self, "\(refused)") { try AudioSettings(config: refused) }
        }
    }

    @Test func whatTheSinksArgumentsCannotCarryIsRefused() {
        for refused in ["relative/fifo", "/tmp/a\"b", "/tmp/a'b", "/tmp/a\\b", "/tmp/a\nb", "/tmp/a\u{7f}"] {
            #expect(throws: PlayerError.self, "\(refused)") { try AudioSettings().snapcastPipe(refused) }
        }
        for refused in ["48000:16", "48000:8:2", "1:16:2", "48000:16:9", "a:b:c", "48000:16:2:1"] {
            #expect(throws: PlayerError.self, "\(refused)") { try AudioSettings(config: "snapcast-sampleformat = \(refused)") }
        }
    }
}

private extension AudioSettings {
    func snapcastPipe(_ value: String) throws(PlayerError) {
        var settings = self
        try settings.set("snapcast-pipe", value)
    }
}
