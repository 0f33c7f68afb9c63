import RepriseCore
import Testing

/// The MPD server's config keys: what they take, and what they refuse with the line named.
@Suite struct MPDSettingsTests {
    @Test func theDefaultsServeOnLoopbackAndEveryKeyIsRead() throws {
        #expect(AudioSettings().mpd == MPDSettings())
        #expect(MPDSettings().enabled && MPDSettings().isLoopback && MPDSettings().port == 6600)
        let settings = try AudioSettings(config: """
            mpd = on
            mpd-address = any
            mpd-port = 6700
            mpd-socket = off
            mpd-password-file = ~/.config/reprise/mpd-passwords
            mpd-default-permissions = read, add
            """)
        #expect(settings.mpd.address == "any" && !settings.mpd.isLoopback)
        #expect(settings.mpd.port == 6700 && settings.mpd.socketPath == "")
        #expect(settings.mpd.passwordFile == "~/.config/reprise/mpd-passwords")
        #expect(settings.mpd.defaultPermissions == "read,add")
        #expect(try AudioSettings(config: "mpd = off").mpd.enabled == false)
    }

    @Test func badValuesAreRefusedNamingTheLine() {
        for (line, wanted) in [("mpd-port = 70000", "0 to 65535"), ("mpd-address = example.com", "IPv4"),
                               ("mpd-socket = relative/path", "absolute"), ("mpd-default-permissions = read, root", "read, add"),
                               ("mpd = maybe", "on or off")] {
            #expect(throws: PlayerError.self) { try AudioSettings(config: "\n" + line) }
            do { _ = try AudioSettings(config: "\n" + line) } catch {
                #expect(error.message.hasPrefix("config line 2:") && error.message.contains(wanted), "\(error.message)")
            }
        }
    }
}
