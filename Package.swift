// swift-tools-version:6.0
import PackageDescription

/// Reprise: a media player service for the Linux desktop — MPRIS2 over sd-bus, playback with GStreamer, an audio
/// policy over libpulse, a music library, an MPD server, a command line, a terminal view and a video window.
/// Each target's folder under Sources/ names its layer, and targets are listed here in that order: Core (no
/// dependencies), Shims, Wrappers, Library, Surfaces, Service, Executables; then Testing, Tools and the tests.
/// ARCHITECTURE.md draws the same picture.
let package = Package(
    name: "Reprise",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "reprise", targets: ["reprise"]),
        .executable(name: "reprised", targets: ["reprised"]),
        .executable(name: "reprise-tag-reader", targets: ["reprise-tag-reader"]),
        .executable(name: "reprise-snapcast", targets: ["reprise-snapcast"]),
        .executable(name: "reprise-bench", targets: ["reprise-bench"]),
        .executable(name: "reprise-fuzz", targets: ["reprise-fuzz"]),
        .executable(name: "reprise-soak", targets: ["reprise-soak"]),
        .executable(name: "silent-player", targets: ["silent-player"]),
        .executable(name: "stream-memory", targets: ["stream-memory"]),
        .executable(name: "swift-floor", targets: ["swift-floor"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Core: the player, its queue and rules, the audio policy, the change feed, what a person asks (RemoteControl), the
        // ports the service implements. The Swift standard library only; unit-tested without a bus.
        /// debian/changelog's newest version, generated into RepriseCore as `RepriseVersion`.
        .plugin(name: "VersionFromChangelog", capability: .buildTool()),
        .target(name: "RepriseCore", dependencies: ["VideoInput"], path: "Sources/Core/RepriseCore", plugins: ["VersionFromChangelog"]),
        /// Input from a video window, window-neutral (keys as meanings, pointer, buttons): what both windows report
        /// and the core's video controls read.
        .target(name: "VideoInput", path: "Sources/Core/VideoInput"),
        // Shims: Debian's C libraries as Swift sees them (pkg-config system libraries), and small C shims over them.
        .systemLibrary(name: "CSystemd", path: "Sources/Shims/CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CGStreamer", path: "Sources/Shims/CGStreamer", pkgConfig: "gstreamer-1.0", providers: [.apt(["libgstreamer1.0-dev"])]),
        .systemLibrary(name: "CGStreamerPbutils", path: "Sources/Shims/CGStreamerPbutils", pkgConfig: "gstreamer-pbutils-1.0",
                       providers: [.apt(["libgstreamer-plugins-base1.0-dev"])]),
        .systemLibrary(name: "CPulse", path: "Sources/Shims/CPulse", pkgConfig: "libpulse-mainloop-glib", providers: [.apt(["libpulse-dev"])]),
        /// A library opened when first needed, its functions resolved into a table (for CSQLite and CPangoCairo).
        .target(name: "CLazyLibrary", path: "Sources/Shims/CLazyLibrary"),
        /// SQLite (Debian libsqlite3-0) opened when the library's index is first opened: the calls SQLiteKit makes,
        /// forwarded through a table `dlopen` fills (a service with no library maps none of it).
        .target(name: "CSQLite", dependencies: ["CLazyLibrary"], path: "Sources/Shims/CSQLite"),
        .systemLibrary(name: "CTagLib", path: "Sources/Shims/CTagLib", pkgConfig: "taglib", providers: [.apt(["libtag1-dev"])]),
        /// libebur128: EBU R128 loudness and true peak, opened when the first file is measured (a table dlopen fills).
        .target(name: "CEbur128", dependencies: ["CLazyLibrary"], path: "Sources/Shims/CEbur128"),
        /// Pango and Cairo (Debian libpango-1.0-0, libcairo2) opened when the video controls are first drawn: the
        /// calls the controls make, forwarded through a table `dlopen` fills (nothing of them is mapped before).
        .target(name: "CPangoCairo", dependencies: ["CLazyLibrary"], path: "Sources/Shims/CPangoCairo"),
        /// TagLib (C++) behind a small C interface: one call reads a file's tags, audio properties and cover. Linked
        /// only into the tag reader process.
        .target(name: "CTagLibShim", dependencies: ["CTagLib", "CTagReaderClient", "CAVFormat"], path: "Sources/Shims/CTagLibShim"),
        /// libavformat (Debian libavformat59) opened in the tag reader when a file mpd reads with FFmpeg comes: its
        /// metadata as mpd's FFmpeg plugin reads it (a table dlopen fills).
        .target(name: "CAVFormat", dependencies: ["CLazyLibrary"], path: "Sources/Shims/CAVFormat"),
        /// The tag reader process's protocol: starting it, asking it for a file's tags (the descriptor passed over a
        /// Unix socket), checking its answers; and its own serving loop. No TagLib here.
        .target(name: "CTagReaderClient", path: "Sources/Shims/CTagReaderClient"),
        // One C shim target per wrapper: SDBus builds with libsystemd alone, X11Kit with Xlib and libXi alone.
        .target(name: "CSDBusShims", dependencies: ["CSystemd"], path: "Sources/Shims/CSDBusShims"),
        .target(name: "CGStreamerShims", dependencies: ["CGStreamer"], path: "Sources/Shims/CGStreamerShims",
                linkerSettings: [.linkedLibrary("gstvideo-1.0"), .linkedLibrary("gsttag-1.0")]),
        /// The X11 video window; libX11 and libXi opened when the first window opens (a table dlopen fills).
        .target(name: "CX11", dependencies: ["CLazyLibrary"], path: "Sources/Shims/CX11"),
        /// GLib's pkg-config flags for the Wayland shim's event source.
        .systemLibrary(name: "CGLib", path: "Sources/Shims/CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        /// A Wayland toplevel (libwayland-client, libdecor, xkbcommon, opened when the first window opens): the surface
        /// waylandsink draws video into. One translation unit, wayland.c, which includes the others.
        .target(name: "CWayland", dependencies: ["CGLib"], path: "Sources/Shims/CWayland",
                exclude: ["window.c", "input.c", "wayland_loader.c"]),
        .target(name: "CLoopShims", dependencies: ["CSystemd", "CGStreamer"], path: "Sources/Shims/CLoopShims"),
        /// One HTTP POST with libcurl (libcurl4-openssl-dev for its header), loaded with dlopen on first use.
        .target(name: "CHTTPShim", path: "Sources/Shims/CHTTPShim"),
        // Wrappers: thin safe Swift over each C library (some take the core's value types), and the event loop.
        /// Tags, lengths, covers and lyrics read from files' headers with TagLib, nothing decoded.
        .target(name: "TagLibKit", dependencies: ["CTagReaderClient", "PosixFiles", "RepriseCore"], path: "Sources/Wrappers/TagLibKit"),
        .target(name: "SDBus", dependencies: ["CSystemd", "CSDBusShims"], path: "Sources/Wrappers/SDBus"),
        .target(name: "GStreamerKit", dependencies: ["CGStreamer", "CGStreamerPbutils", "CGStreamerShims", "RepriseCore", "LoopKit"], path: "Sources/Wrappers/GStreamerKit"),
        .target(name: "X11Kit", dependencies: ["CX11", "VideoInput", "WindowInputCodes"], path: "Sources/Wrappers/X11Kit"),
        .target(name: "WaylandKit", dependencies: ["CWayland", "VideoInput", "WindowInputCodes"], path: "Sources/Wrappers/WaylandKit"),
        /// X11's and xkbcommon's keysyms and button numbers as VideoInput's meanings, once for both windows.
        .target(name: "WindowInputCodes", dependencies: ["VideoInput"], path: "Sources/Wrappers/WindowInputCodes"),
        .target(name: "PulseKit", dependencies: ["CPulse", "RepriseCore"], path: "Sources/Wrappers/PulseKit"),
        /// Blocking HTTP POSTs (for a worker): answers bounded, timeouts, http and https only.
        .target(name: "HTTPKit", dependencies: ["CHTTPShim"], path: "Sources/Wrappers/HTTPKit"),
        /// A thin wrapper over SQLite: a connection, prepared statements, transactions.
        .target(name: "SQLiteKit", dependencies: ["CSQLite"], path: "Sources/Wrappers/SQLiteKit"),
        /// The video controls drawn (Pango and Cairo) into a buffer at the output's scale, for either window to show.
        .target(name: "ControlsKit", dependencies: ["CPangoCairo", "RepriseCore"], path: "Sources/Wrappers/ControlsKit"),
        /// Loudness measured from decoded sound (libebur128 over GStreamer's decoding), for tracks without ReplayGain.
        .target(name: "LoudnessKit", dependencies: ["CEbur128", "GStreamerKit", "RepriseCore"], path: "Sources/Wrappers/LoudnessKit"),
        .target(name: "PosixFiles", dependencies: ["RepriseCore"], path: "Sources/Wrappers/PosixFiles"),
        /// The event loop (GLib with sd-event inside), the monotonic clock, standard error and systemd's notifications.
        .target(name: "LoopKit", dependencies: ["CLoopShims", "CGStreamer", "CSystemd"], path: "Sources/Wrappers/LoopKit"),
        // Library: the music library over SQLite, TagLib and GStreamer, on workers.
        /// The music library: its facade on the loop (`LibraryService`), its SQLite index and the scanner that fills it on
        /// a worker thread, loudness measuring, the cover cache.
        .target(name: "RepriseLibrary", dependencies: ["SQLiteKit", "RepriseCore", "PosixFiles", "GStreamerKit", "TagLibKit",
                                                       "LoopKit", "LoudnessKit"], path: "Sources/Library/RepriseLibrary"),
        // Surfaces: what clients talk to. D-Bus (the code generated from dbus/*.xml, MPRIS, Reprise's own interfaces and
        // the desktop's exports) and the MPD protocol and its server. The video windows are X11Kit and WaylandKit (wrappers).
        .plugin(name: "DBusInterfaces", capability: .buildTool(), dependencies: ["dbus-codegen"]),
        /// Generated from dbus/*.xml: per interface its description, handler protocol, export, signals and client proxy.
        .target(name: "BusInterfaces", dependencies: ["SDBus"], path: "Sources/Surfaces/BusInterfaces", plugins: ["DBusInterfaces"]),
        /// The MPRIS spec's four interfaces over a Player.
        .target(name: "MPRIS", dependencies: ["SDBus", "BusInterfaces", "RepriseCore"], path: "Sources/Surfaces/MPRIS"),
        /// Reprise's own interfaces (app.reprise.*), the desktop exports (search providers, MediaServer2) and the
        /// composition of everything the service offers on the bus (``DBusAdaptor``).
        .target(name: "RepriseInterfaces", dependencies: ["MPRIS", "SDBus", "BusInterfaces", "RepriseCore"], path: "Sources/Surfaces/RepriseInterfaces"),
        /// The MPD protocol without sockets: request lines, replies, a connection's session (command lists, idle),
        /// and every command over the same Player MPRIS drives.
        .target(name: "MPDProtocol", dependencies: ["RepriseCore"], path: "Sources/Surfaces/MPDProtocol"),
        /// The MPD server: listening sockets (TCP on loopback, a Unix socket) and non-blocking connections on the loop.
        .target(name: "MPDServer", dependencies: ["MPDProtocol", "RepriseCore", "LoopKit"], path: "Sources/Surfaces/MPDServer"),
        // Service: the components with start and stop, and their composition (ServiceAssembly builds the surfaces).
        /// The service: its components (engine, audio session, video, state, metadata, the D-Bus export, systemd),
        /// started in order and stopped in reverse.
        .target(name: "RepriseService", dependencies: ["VideoInput", "MPRIS", "RepriseInterfaces", "RepriseCore", "PosixFiles", "GStreamerKit", "PulseKit", "SDBus", "RepriseLibrary", "TagLibKit",
                                                       "X11Kit", "WaylandKit", "LoopKit", "LoudnessKit", "HTTPKit", "MPDServer", "MPDProtocol", "ControlsKit"], path: "Sources/Service/RepriseService"),
        // Executables: `reprise`, the command people type (its verbs in RepriseClient), and `reprised`, the service.
        /// The command-line verbs and the terminal view: D-Bus clients of a running player.
        .target(name: "RepriseClient", dependencies: ["MPRIS", "BusInterfaces", "RepriseCore", "PosixFiles", "SDBus", "LoopKit",
                                                      .product(name: "ArgumentParser", package: "swift-argument-parser")], path: "Sources/Executables/RepriseClient"),
        /// `reprised`: the service, lean (no argument-parsing library, no client verbs: their code and the
        /// FoundationEssentials it brings cost ~2.3 MiB of mapped pages in every run). It takes its own options and
        /// `-- MEDIA` only; `reprise`, D-Bus activation and the systemd unit start it.
        .executableTarget(name: "reprised", dependencies: ["RepriseService", "RepriseCore", "LoopKit", "PosixFiles"], path: "Sources/Executables/reprised"),
        /// The process TagLib runs in (C): the service's TagLibKit starts it beside its own executable and sends it
        /// descriptors to read.
        .executableTarget(name: "reprise-tag-reader", dependencies: ["CTagLibShim", "CTagReaderClient", "CAVFormat"],
                          path: "Sources/Executables/reprise-tag-reader"),
        /// `reprise-snapcast`: Snapcast's stream plugin (`controlscript=`), bridging snapserver's stream control to
        /// Reprise's MPD server; Foundation only.
        .executableTarget(name: "reprise-snapcast", path: "Sources/Executables/reprise-snapcast"),
        /// `reprise`: the one command people type — every verb, help, completions, and serving: media handed to the
        /// running service, or `reprised` exec'd (same PID) when none runs. It does not link the service.
        .executableTarget(name: "reprise", dependencies: ["RepriseClient", "RepriseCore", "LoopKit", "PosixFiles",
                                                         .product(name: "ArgumentParser", package: "swift-argument-parser")], path: "Sources/Executables/reprise"),
        // Testing: doubles and harness support, linked by tests and tools only.
        /// An in-process bus (``LocalBus``) for tests of the adaptors: only tests and tools link it.
        .target(name: "SDBusTesting", dependencies: ["SDBus"], path: "Sources/Testing/SDBusTesting"),
        /// Doubles of the core's ports (a scripted engine, a recording observer) for the unit tests.
        .target(name: "CoreTestDoubles", dependencies: ["RepriseCore", "PosixFiles"], path: "Sources/Testing/CoreTestDoubles"),
        .target(name: "TestSupport", dependencies: ["RepriseCore"], path: "Sources/Testing/TestSupport"),
        // Tools: the interface generator, the benchmark, the fuzzer and soak runner, and test tools.
        // dbus/*.xml is the single source of each interface's shape: the plugin generates the descriptions.
        .executableTarget(name: "dbus-codegen", path: "Sources/Tools/dbus-codegen"),
        .executableTarget(name: "reprise-bench", dependencies: ["SDBus", "TestSupport", "RepriseCore"], path: "Sources/Tools/reprise-bench"),
        .executableTarget(name: "reprise-fuzz", dependencies: ["SDBus", "MPRIS", "BusInterfaces", "TestSupport", "RepriseCore"], path: "Sources/Tools/reprise-fuzz"),
        .executableTarget(name: "reprise-soak", dependencies: ["SDBus", "BusInterfaces", "TestSupport"], path: "Sources/Tools/reprise-soak"),
        /// A test double: an MPRIS player that plays no sound here (a mirror, a proxy).
        .executableTarget(name: "silent-player", dependencies: ["SDBus"], path: "Sources/Tools/silent-player"),
        /// A test tool: a virtual pointer (zwlr_virtual_pointer_v1) for a compositor without input devices.
        .executableTarget(name: "wl-virtual-input", path: "Sources/Tools/wl-virtual-input", linkerSettings: [.linkedLibrary("wayland-client")]),
        /// A test tool: prints what the sound server's stream-restore remembers.
        .executableTarget(name: "stream-memory", dependencies: ["PulseKit", "LoopKit"], path: "Sources/Tools/stream-memory"),
        /// A benchmark reference: an idle static Swift process, or one that only owns a bus name (`make bench`).
        .executableTarget(name: "swift-floor", dependencies: ["SDBus"], path: "Sources/Tools/swift-floor"),
        // Tests.
        .testTarget(name: "MPDProtocolTests", dependencies: ["MPDProtocol", "RepriseCore", "CoreTestDoubles"]),
        .testTarget(name: "RepriseCoreTests", dependencies: ["RepriseCore", "PosixFiles", "CoreTestDoubles"]),
        .testTarget(name: "ControlsKitTests", dependencies: ["ControlsKit", "RepriseCore"]),
        .testTarget(name: "RepriseServiceTests", dependencies: ["RepriseService", "VideoInput", "WindowInputCodes", "RepriseCore", "PulseKit", "LoopKit", "PosixFiles", "CoreTestDoubles", "SQLiteKit",
                                                           "ControlsKit"]),
        .testTarget(name: "MPRISTests", dependencies: ["MPRIS", "RepriseInterfaces", "BusInterfaces", "RepriseCore", "SDBus", "SDBusTesting",
                                                     "PosixFiles", "CoreTestDoubles"]),
        /// The command line's own logic (what is media, what the parser gets), no bus.
        .testTarget(name: "RepriseClientTests", dependencies: ["RepriseClient", "SDBus", "RepriseCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        /// The library's reading and indexing over real generated files (TagLib, the scan pipeline, SQLite), no bus.
        .testTarget(name: "LibraryScanTests", dependencies: ["RepriseLibrary", "TagLibKit", "LoudnessKit", "RepriseCore", "TestSupport",
                                                          "LoopKit", "PosixFiles", "CoreTestDoubles", "SQLiteKit", "CTagLibShim"]),
        .testTarget(name: "IntegrationTests", dependencies: ["SDBus", "BusInterfaces", "TestSupport"],
                    exclude: ["MPDTranscripts", "SnapcastTranscripts"]),
    ],
    swiftLanguageModes: [.v6]
)
