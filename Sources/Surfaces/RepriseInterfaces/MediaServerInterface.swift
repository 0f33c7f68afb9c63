import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// One object of the MediaServer2 tree on its three interfaces: a view of ``MediaServerTree`` at `path`, made
/// for each call. Properties are read from the tree's description of the object (the same a listing gives).
struct MediaServerObject: UPnPMediaObject2Handler, UPnPMediaContainer2Handler, UPnPMediaItem2Handler {
    let tree: MediaServerTree
    let path: String

    /// The three tree exports, each resolving only the objects that carry its interface.
    static func exports(of tree: MediaServerTree) -> (UPnPMediaObject2Tree, UPnPMediaContainer2Tree, UPnPMediaItem2Tree) {
        func resolve(_ interface: String) -> (String) -> MediaServerObject? {
            { [weak tree] path in
                guard let tree, tree.properties(at: path, interface: interface) != nil else { return nil }
                return MediaServerObject(tree: tree, path: path)
            }
        }
        let objects = resolve(MediaServerTree.objectInterface), containers = resolve(MediaServerTree.containerInterface)
        let items = resolve(MediaServerTree.itemInterface)
        return (UPnPMediaObject2Tree { objects($0) }, UPnPMediaContainer2Tree { containers($0) }, UPnPMediaItem2Tree { items($0) })
    }

    private func value(_ interface: String, _ name: String) throws(DBusError) -> DBusValue {
        guard let value = tree.properties(at: path, interface: interface)?.first(where: { $0.0 == name })?.1 else {
            throw DBusError.unknownProperty(name, "no property \(name) here")
        }
        return value
    }

    // MARK: MediaObject2

    var parent: String { get throws(DBusError) { try value(MediaServerTree.objectInterface, "Parent").asObjectPath() } }
    var type: String { get throws(DBusError) { try value(MediaServerTree.objectInterface, "Type").asString() } }
    var displayName: String { get throws(DBusError) { try value(MediaServerTree.objectInterface, "DisplayName").asString() } }

    // MARK: MediaContainer2

    func listChildren(offset: UInt32, max: UInt32, filter: [String], reply: Reply<[[String: DBusValue]]>) throws(DBusError) {
        list(offset, max, filter, containers: true, items: true, reply)
    }

    func listContainers(offset: UInt32, max: UInt32, filter: [String], reply: Reply<[[String: DBusValue]]>) throws(DBusError) {
        list(offset, max, filter, containers: true, items: false, reply)
    }

    func listItems(offset: UInt32, max: UInt32, filter: [String], reply: Reply<[[String: DBusValue]]>) throws(DBusError) {
        list(offset, max, filter, containers: false, items: true, reply)
    }

    private func list(_ offset: UInt32, _ max: UInt32, _ filter: [String], containers: Bool, items: Bool, _ reply: Reply<[[String: DBusValue]]>) {
        tree.list(path, offset: Int(offset), max: Int(max), filter: filter, containers: containers, itemsToo: items) {
            reply.send($0)
        }
    }

    func searchObjects(query: String, offset: UInt32, max: UInt32, filter: [String], reply: Reply<[[String: DBusValue]]>) throws(DBusError) {
        let parsed: MediaQuery
        do throws(MediaQuery.ParseError) { parsed = try MediaQuery(parsing: query) } catch { throw .invalidArgs(error.message) }
        tree.search(path, query: parsed, offset: Int(offset), max: Int(max), filter: filter) {
            reply.send($0)
        }
    }

    var childCount: UInt32 { get throws(DBusError) { try value(MediaServerTree.containerInterface, "ChildCount").asUInt32() } }
    var itemCount: UInt32 { get throws(DBusError) { try value(MediaServerTree.containerInterface, "ItemCount").asUInt32() } }
    var containerCount: UInt32 { get throws(DBusError) { try value(MediaServerTree.containerInterface, "ContainerCount").asUInt32() } }
    var searchable: Bool { get throws(DBusError) { try value(MediaServerTree.containerInterface, "Searchable").asBool() } }

    // MARK: MediaItem2

    var urls: [String] {
        get throws(DBusError) { try value(MediaServerTree.itemInterface, "URLs").asArray { (url: DBusValue) throws(DBusError) in try url.asString() } }
    }
    var mimeType: String { get throws(DBusError) { try value(MediaServerTree.itemInterface, "MIMEType").asString() } }
    var artist: String { get throws(DBusError) { try value(MediaServerTree.itemInterface, "Artist").asString() } }
    var album: String { get throws(DBusError) { try value(MediaServerTree.itemInterface, "Album").asString() } }
    var genre: String { get throws(DBusError) { try value(MediaServerTree.itemInterface, "Genre").asString() } }
    var trackNumber: Int32 { get throws(DBusError) { try value(MediaServerTree.itemInterface, "TrackNumber").asInt32() } }
    var duration: Int32 { get throws(DBusError) { try value(MediaServerTree.itemInterface, "Duration").asInt32() } }
}
