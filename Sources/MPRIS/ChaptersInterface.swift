import RepriseCore
import SDBus

public enum ChaptersNames {
    public static let interface = "app.reprise.Chapters1"

    public static let description = DBusInterfaces.appRepriseChapters1
}

/// app.reprise.Chapters1: the chapters of what plays (from its table of contents, MP4 `chpl` box or Vorbis
/// `CHAPTERnnn` comments) and moving between them.
final class ChaptersInterface: ReadOnlyInterface {
    private let player: Player

    init(player: Player) { self.player = player }

    static let propertyNames = ChaptersNames.description.properties.map(\.name)

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        do throws(PlayerError) {
            switch (call.member, call.arguments.first) {
            case ("GoTo", .uint32(let index)?) where call.arguments.count == 1:
                try player.goToChapter(Int(index))
            case ("Next", nil):
                try player.nextChapter()
            case ("Previous", nil):
                try player.previousChapter()
            default:
                throw .invalidArgument("bad arguments for \(call.member)")
            }
        } catch {
            throw error.dbusError
        }
        return .reply([])
    }

    func get(_ property: String) throws(DBusError) -> DBusValue {
        switch property {
        case "Chapters":
            return .array(elementSignature: "(sx)", player.chapters.chapters.map {
                .structure([.string($0.title), .int64($0.startMicroseconds)])
            })
        case "Current":
            return .int32(Int32(clamping: player.announcedChapterIndex ?? -1))
        default:
            throw DBusError.unknownProperty(property)
        }
    }
}
