import RepriseCore
import SDBus

/// One of the three MediaServer2 interfaces over the tree.
final class MediaServerInterface: TreeImplementation {
    private let tree: MediaServerTree
    private let interface: String

    init(tree: MediaServerTree, interface: String) {
        self.tree = tree
        self.interface = interface
    }

    static func description(_ interface: String) -> InterfaceDescription {
        switch interface {
        case MediaServerTree.objectInterface: DBusInterfaces.orgGnomeUPnPMediaObject2
        case MediaServerTree.containerInterface: DBusInterfaces.orgGnomeUPnPMediaContainer2
        default: DBusInterfaces.orgGnomeUPnPMediaItem2
        }
    }

    func exists(_ path: String) -> Bool { tree.properties(at: path, interface: interface) != nil }

    func call(_ call: MethodCall, at path: String) throws(DBusError) -> MethodOutcome {
        let arguments = call.arguments
        let listing = ["ListChildren", "ListContainers", "ListItems"].contains(call.member)
        guard interface == MediaServerTree.containerInterface else { throw .invalidArgs("no method \(call.member)") }
        if call.member == "SearchObjects" {
            guard arguments.count == 4, let text = arguments[0].stringValue, case .uint32(let offset) = arguments[1],
                  case .uint32(let max) = arguments[2], let filter = arguments[3].stringArray else {
                throw .invalidArgs("SearchObjects takes (s, u, u, as)")
            }
            let query: MediaQuery
            do throws(MediaQuery.ParseError) { query = try MediaQuery(parsing: text) } catch { throw .invalidArgs(error.message) }
            tree.search(path, query: query, offset: Int(offset), max: Int(max), filter: filter) {
                call.reply([.array(elementSignature: "a{sv}", $0)])
            }
            return .deferred
        }
        guard listing, arguments.count == 3, case .uint32(let offset) = arguments[0], case .uint32(let max) = arguments[1],
              let filter = arguments[2].stringArray else { throw .invalidArgs("\(call.member) takes (u, u, as)") }
        tree.list(path, offset: Int(offset), max: Int(max), filter: filter, containers: call.member != "ListItems",
                  itemsToo: call.member != "ListContainers") { call.reply([.array(elementSignature: "a{sv}", $0)]) }
        return .deferred
    }

    func get(_ property: String, at path: String) throws(DBusError) -> DBusValue {
        guard let value = tree.properties(at: path, interface: interface)?.first(where: { $0.0 == property })?.1 else {
            throw DBusError.unknownProperty(property, "no property \(property) here")
        }
        return value
    }
}
