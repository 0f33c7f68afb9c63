/// The commands a server offers, looked up by name, and the tag types its songs carry.
public final class MPDCommandSet {
    private var byName: [String: MPDCommand] = [:]
    /// The tag names songs are printed with, in the order `tagtypes` lists them.
    public let tagTypes: [String]
    /// The same names as listings check them: what each new connection starts with.
    public let allWantedTags: MPDWantedTags

    public init(tagTypes: [String]) {
        self.tagTypes = tagTypes
        allWantedTags = MPDWantedTags(Set(tagTypes))
        for command in Self.connectionCommands(tagTypes: tagTypes) { add(command) }
    }

    /// Adds `command` (replacing one of the same name).
    public func add(_ command: MPDCommand) { byName[command.name] = command }
    public func add(_ commands: [MPDCommand]) { for command in commands { add(command) } }

    public func command(named name: String) -> MPDCommand? { byName[name] }

    /// Every command, by name.
    public var all: [MPDCommand] { byName.values.sorted { $0.name < $1.name } }

    /// What every connection has, whatever the server behind it: `ping`, `close`, `commands`, `notcommands`,
    /// `tagtypes`, `binarylimit`, `password` is the server's.
    private static func connectionCommands(tagTypes: [String]) -> [MPDCommand] {
        [
            MPDCommand("ping", [], 0, 0) { _ throws(MPDError) in .done },
            MPDCommand("close", [], 0, nil) { _ throws(MPDError) in .close },
            MPDCommand("commands", [], 0, 0) { call throws(MPDError) in
                for command in call.session.commands.all where call.session.permissions.isSuperset(of: command.permission) {
                    call.add("command", command.name)
                }
                return .done
            },
            MPDCommand("notcommands", [], 0, 0) { call throws(MPDError) in
                for command in call.session.commands.all where !call.session.permissions.isSuperset(of: command.permission) {
                    call.add("command", command.name)
                }
                return .done
            },
            MPDCommand("binarylimit", [], 1, 1) { call throws(MPDError) in
                guard let limit = Int(call[0]), limit >= 64 else { throw .argument("Value too small") }
                call.session.binaryLimit = min(limit, 1 << 24)
                return .done
            },
            MPDCommand("tagtypes", [], 0, nil) { call throws(MPDError) in
                try tagTypesCommand(call, known: tagTypes)
                return .done
            },
        ]
    }

    /// Every tag name MPD 0.23 knows (its `src/tag/Names.c`).
    static let allMPDTags = ["Artist", "ArtistSort", "Album", "AlbumSort", "AlbumArtist", "AlbumArtistSort", "Title",
                             "Track", "Name", "Genre", "Date", "OriginalDate", "Composer", "ComposerSort", "Performer",
                             "Conductor", "Work", "Ensemble", "Movement", "MovementNumber", "Location", "Grouping", "Comment",
                             "Disc", "Label", "MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID",
                             "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_RELEASETRACKID", "MUSICBRAINZ_WORKID"]

    /// `tagtypes` (list the enabled ones), `tagtypes clear|all`, `tagtypes enable|disable NAME…`.
    private static func tagTypesCommand(_ call: MPDCall, known: [String]) throws(MPDError) {
        guard let verb = call.arguments.first else {
            for name in known where call.session.tagTypes.contains(name) { call.add("tagtype", name) }
            return
        }
        let names = call.arguments.dropFirst()
        func resolved() throws(MPDError) -> [String] {
            guard !names.isEmpty else { throw .argument("Not enough arguments") }
            var found: [String] = []
            for name in names {
                // Any tag MPD knows may be named (mpc enables Performer); those Reprise does not keep are never sent.
                guard let match = (known + allMPDTags).first(where: { $0.lowercased() == name.lowercased() }) else {
                    throw .argument("Unknown tag type: \(name)")
                }
                found.append(match)
            }
            return found
        }
        switch verb {
        case "clear": call.session.tagTypes = []
        case "all": call.session.tagTypes = call.session.commands.allWantedTags.names
        case "enable": call.session.tagTypes.formUnion(try resolved())
        case "disable": call.session.tagTypes.subtract(try resolved())
        default: throw .argument("Unknown sub command")
        }
    }
}
