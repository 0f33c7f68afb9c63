import ArgumentParser
import MPRIS
import RepriseCore
import BusInterfaces
import SDBus

struct Actions: ClientVerb {
    static let configuration = CommandConfiguration(abstract: "List Reprise's custom actions and the control layout.")
    @OptionGroup var target: TargetOptions

    func run(with client: ServiceClient) throws {
        let actions = try client.controls.actions
        let rows = try client.controls.layout
        let bottom = rows.bottom, expanded = rows.expanded
        if target.json {
            printJSON(.object([
                ("actions", .array(actions.map { .object([("id", .string($0.id)), ("label", .string($0.label)),
                                                           ("icon", .string($0.icon)), ("enabled", .bool($0.enabled))]) })),
                ("bottomRow", .array(bottom.map(JSON.string))), ("expandedRow", .array(expanded.map(JSON.string))),
            ]))
            return
        }
        for action in actions {
            printLine("\(action.id)\t\(action.label)\(action.enabled ? "" : "\t(not available now)")")
        }
        printLine("bottom row: " + bottom.joined(separator: " · "))
        if !expanded.isEmpty { printLine("expanded row: " + expanded.joined(separator: " · ")) }
    }
}

struct Invoke: ActionVerb {
    static let configuration = CommandConfiguration(abstract: "Run a custom action (see `reprise actions`).")
    @OptionGroup var target: TargetOptions
    @Argument(help: "The action's id, e.g. skip-forward.") var id: String

    func act(on client: ServiceClient) throws { try client.controls.invoke(action: id) }
}

struct Category: ClientVerb {
    static let configuration = CommandConfiguration(abstract: "Show or set the audio category and its options.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "ambient, soloAmbient, playback, record or playAndRecord") var name: String?
    @Option(help: "Comma-separated: mixWithOthers, duckOthers, notifyOthersOnDeactivation.") var options: String?

    func run(with client: ServiceClient) throws {
        let session = client.audioSession
        if name != nil || options != nil {
            let category = try name ?? session.category
            let list = try options.map { $0.split(separator: ",").map { $0.trimmingWhitespace() } } ?? session.options
            do throws(DBusError) {
                try session.setCategory(category: category, options: list)
            } catch {
                throw CLIError(error.message, status: 2)
            }
        }
        let category = try session.category
        let current = try session.options
        if target.json {
            printJSON(.object([("category", .string(category)), ("options", .array(current.map(JSON.string)))]))
        } else {
            printLine(current.isEmpty ? category : category + " (" + current.joined(separator: ", ") + ")")
        }
    }
}

struct Silent: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set silent mode: on or off.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "on or off") var state: String?

    func run() throws {
        try showOrSwitch(target, key: "silent", word: state, set: { try $0.audioSession.setSilent(silent: $1) }) {
            try $0.audioSession.silent
        }
    }
}

struct OutputCommand: ClientVerb {
    static let configuration = CommandConfiguration(
        commandName: "output", abstract: "List the outputs, or move Reprise to one: output list | output set NAME.")
    @OptionGroup var target: TargetOptions
    @Argument(help: "list or set") var action: String = "list"
    @Argument(help: "The output's name (for set; \"\" follows the default).") var name: String?

    func validate() throws {
        guard action == "list" || (action == "set" && name != nil) else {
            throw ValidationError("use `output list` or `output set NAME`")
        }
    }

    func run(with client: ServiceClient) throws {
        if action == "set", let name {
            do throws(DBusError) {
                try client.audioSession.setOutput(output: name)
            } catch {
                throw CLIError(error.message, status: 2)
            }
        }
        let outputs = try client.audioSession.listOutputs()
        if target.json {
            printJSON(.array(outputs.map { .object([("name", .string($0.name)), ("description", .string($0.description)),
                                                    ("current", .bool($0.active))]) }))
        } else {
            for output in outputs { printLine((output.active ? "* " : "  ") + output.name + "\t" + output.description) }
        }
    }
}
