// swift-tools-version:6.0
import PackageDescription

/// Reprise: an MPRIS2 media player service over sd-bus and GStreamer.
/// Layers (each its own target): C system libraries and shims → thin Swift wrappers
/// (SDBus, GStreamerKit) → pure-Swift core (RepriseCore) → MPRIS adaptor → executable.
let package = Package(
    name: "Reprise",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "reprise", targets: ["reprise"]),
        .executable(name: "reprised", targets: ["reprised"]),
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
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CGStreamer", pkgConfig: "gstreamer-1.0", providers: [.apt(["libgstreamer1.0-dev"])]),
        .systemLibrary(name: "CGStreamerPbutils", pkgConfig: "gstreamer-pbutils-1.0",
                       providers: [.apt(["libgstreamer-plugins-base1.0-dev"])]),
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse-mainloop-glib", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CTagLib", pkgConfig: "taglib", providers: [.apt(["libtag1-dev"])]),
        /// libebur128: EBU R128 loudness and true peak (its C interface is small enough to call as it is).
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        /// TagLib (C++) behind a small C interface: one call reads a file's tags, audio properties and cover.
        .target(name: "CTagLibShim", dependencies: ["CTagLib"]),
        /// Tags, lengths, covers and lyrics read from files' headers with TagLib, nothing decoded.
        .target(name: "TagLibKit", dependencies: ["CTagLibShim", "RepriseCore"]),
        // One C shim target per wrapper: SDBus builds with libsystemd alone, X11Kit with Xlib and libXi alone.
        .target(name: "CSDBusShims", dependencies: ["CSystemd"]),
        .target(name: "CGStreamerShims", dependencies: ["CGStreamer"],
                linkerSettings: [.linkedLibrary("gstvideo-1.0"), .linkedLibrary("gsttag-1.0")]),
        .target(name: "CX11", linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("Xi")]),
        /// libdecor's pkg-config flags for the Wayland shim.
        .systemLibrary(name: "CLibdecor", pkgConfig: "libdecor-0", providers: [.apt(["libdecor-0-dev"])]),
        /// A Wayland toplevel (libwayland-client, libdecor, xkbcommon): the surface waylandsink draws video into.
        /// GLib's pkg-config flags for the Wayland shim's event source.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "CWayland", dependencies: ["CLibdecor", "CGLib"],
                linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("wayland-cursor"), .linkedLibrary("xkbcommon")]),
        .target(name: "CLoopShims", dependencies: ["CSystemd", "CGStreamer"]),
        /// One HTTP POST with libcurl (libcurl4-openssl-dev for its header), loaded with dlopen on first use.
        .target(name: "CHTTPShim"),
        .target(name: "SDBus", dependencies: ["CSystemd", "CSDBusShims"]),
        /// An in-process bus (``LocalBus``) for tests of the adaptors: only tests and tools link it.
        .target(name: "SDBusTesting", dependencies: ["SDBus"]),
        .target(name: "GStreamerKit", dependencies: ["CGStreamer", "CGStreamerPbutils", "CGStreamerShims"]),
        .target(name: "X11Kit", dependencies: ["CX11"]),
        .target(name: "WaylandKit", dependencies: ["CWayland"]),
        .target(name: "PulseKit", dependencies: ["CPulse"]),
        /// Blocking HTTP POSTs (for a worker): answers bounded, timeouts, http and https only.
        .target(name: "HTTPKit", dependencies: ["CHTTPShim"]),
        /// A thin wrapper over SQLite: a connection, prepared statements, transactions.
        .target(name: "SQLiteKit", dependencies: ["CSQLite"]),
        /// The video controls drawn (Pango and Cairo) into a buffer at the output's scale, for either window to show.
        .target(name: "ControlsKit", dependencies: ["CPangoCairo", "RepriseCore"]),
        /// The music library: its facade on the loop (`LibraryService`), its SQLite index and the scanner that fills it on
        /// a worker thread, loudness measuring, the cover cache.
        .target(name: "RepriseLibrary", dependencies: ["SQLiteKit", "RepriseCore", "PosixFiles", "GStreamerKit", "TagLibKit",
                                                       "LoopKit", "LoudnessKit"]),
        /// Loudness measured from decoded sound (libebur128 over GStreamer's decoding), for tracks without ReplayGain.
        .target(name: "LoudnessKit", dependencies: ["CEbur128", "GStreamerKit", "RepriseCore"]),
        /// debian/changelog's newest version, generated into RepriseCore as `RepriseVersion`.
        .plugin(name: "VersionFromChangelog", capability: .buildTool()),
        .target(name: "RepriseCore", plugins: ["VersionFromChangelog"]),
        .target(name: "PosixFiles", dependencies: ["RepriseCore"]),
        // dbus/*.xml is the single source of each interface's shape: the plugin generates the descriptions.
        .executableTarget(name: "dbus-codegen"),
        .plugin(name: "DBusInterfaces", capability: .buildTool(), dependencies: ["dbus-codegen"]),
        /// Generated from dbus/*.xml: per interface its description, handler protocol, export, signals and client proxy.
        .target(name: "BusInterfaces", dependencies: ["SDBus"], plugins: ["DBusInterfaces"]),
        /// The MPRIS spec's four interfaces over a Player.
        .target(name: "MPRIS", dependencies: ["SDBus", "BusInterfaces", "RepriseCore"]),
        /// Reprise's own interfaces (app.reprise.*), the desktop exports (search providers, MediaServer2) and the
        /// composition of everything the service offers on the bus (``DBusAdaptor``).
        .target(name: "RepriseInterfaces", dependencies: ["MPRIS", "SDBus", "BusInterfaces", "RepriseCore"]),
        /// The MPD protocol without sockets: request lines, replies, a connection's session (command lists, idle),
        /// and every command over the same Player MPRIS drives.
        .target(name: "MPDProtocol", dependencies: ["RepriseCore"]),
        /// The MPD server: listening sockets (TCP on loopback, a Unix socket) and non-blocking connections on the loop.
        .target(name: "MPDServer", dependencies: ["MPDProtocol", "RepriseCore", "LoopKit"]),
        /// The event loop (GLib with sd-event inside), the monotonic clock, standard error and systemd's notifications.
        .target(name: "LoopKit", dependencies: ["CLoopShims", "CGStreamer", "CSystemd"]),
        /// The service: its components (engine, audio session, video, state, metadata, the D-Bus export, systemd),
        /// started in order and stopped in reverse.
        .target(name: "RepriseService", dependencies: ["MPRIS", "RepriseInterfaces", "RepriseCore", "PosixFiles", "GStreamerKit", "PulseKit", "SDBus", "RepriseLibrary", "TagLibKit",
                                                       "X11Kit", "WaylandKit", "LoopKit", "LoudnessKit", "HTTPKit", "MPDServer", "MPDProtocol", "ControlsKit"]),
        /// The command-line verbs and the terminal view: D-Bus clients of a running player.
        .target(name: "RepriseClient", dependencies: ["MPRIS", "BusInterfaces", "RepriseCore", "PosixFiles", "SDBus", "LoopKit",
                                                      .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        /// `reprised`: the service, lean (no argument-parsing library, no client verbs: their code and the
        /// FoundationEssentials it brings cost ~2.3 MiB of mapped pages in every run). It takes its own options and
        /// `-- MEDIA` only; `reprise`, D-Bus activation and the systemd unit start it.
        .executableTarget(name: "reprised", dependencies: ["RepriseService", "RepriseCore", "LoopKit", "PosixFiles"]),
        /// `reprise`: the one command people type — every verb, help, completions, and serving: media handed to the
        /// running service, or `reprised` exec'd (same PID) when none runs. It does not link the service.
        .executableTarget(name: "reprise", dependencies: ["RepriseClient", "RepriseCore", "LoopKit", "PosixFiles",
                                                         .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "reprise-bench", dependencies: ["SDBus", "TestSupport", "RepriseCore"]),
        .executableTarget(name: "reprise-fuzz", dependencies: ["SDBus", "MPRIS", "BusInterfaces", "TestSupport", "RepriseCore"]),
        .executableTarget(name: "reprise-soak", dependencies: ["SDBus", "BusInterfaces", "TestSupport"]),
        /// A test double: an MPRIS player that plays no sound here (a mirror, a proxy).
        .executableTarget(name: "silent-player", dependencies: ["SDBus"]),
        /// A test tool: a virtual pointer (zwlr_virtual_pointer_v1) for a compositor without input devices.
        .executableTarget(name: "wl-virtual-input", linkerSettings: [.linkedLibrary("wayland-client")]),
        /// A test tool: prints what the sound server's stream-restore remembers.
        .executableTarget(name: "stream-memory", dependencies: ["PulseKit", "LoopKit"]),
        /// A benchmark reference: an idle static Swift process, or one that only owns a bus name (`make bench`).
        .executableTarget(name: "swift-floor", dependencies: ["SDBus"]),
        /// Doubles of the core's ports (a scripted engine, a recording observer) for the unit tests.
        .target(name: "CoreTestDoubles", dependencies: ["RepriseCore", "PosixFiles"]),
        .testTarget(name: "MPDProtocolTests", dependencies: ["MPDProtocol", "RepriseCore", "CoreTestDoubles"]),
        .testTarget(name: "RepriseCoreTests", dependencies: ["RepriseCore", "PosixFiles", "CoreTestDoubles"]),
        .testTarget(name: "ControlsKitTests", dependencies: ["ControlsKit", "RepriseCore"]),
        .testTarget(name: "RepriseServiceTests", dependencies: ["RepriseService", "RepriseCore", "PulseKit", "LoopKit", "PosixFiles", "CoreTestDoubles", "SQLiteKit",
                                                           "ControlsKit"]),
        .testTarget(name: "MPRISTests", dependencies: ["MPRIS", "RepriseInterfaces", "BusInterfaces", "RepriseCore", "SDBus", "SDBusTesting",
                                                     "PosixFiles", "CoreTestDoubles"]),
        /// The command line's own logic (what is media, what the parser gets), no bus.
        .testTarget(name: "RepriseClientTests", dependencies: ["RepriseClient", "SDBus", "RepriseCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "TestSupport"),
        /// The library's reading and indexing over real generated files (TagLib, the scan pipeline, SQLite), no bus.
        .testTarget(name: "LibraryScanTests", dependencies: ["RepriseLibrary", "TagLibKit", "LoudnessKit", "RepriseCore", "TestSupport",
                                                          "LoopKit", "PosixFiles", "CoreTestDoubles", "SQLiteKit"]),
        .testTarget(name: "IntegrationTests", dependencies: ["SDBus", "BusInterfaces", "TestSupport"],
                    exclude: ["MPDTranscripts"]),
    ],
    swiftLanguageModes: [.v6]
)
