import Glibc
import RepriseCore

/// The process's own command line and executable, as both `reprise` executables read them.
public enum ProcessArguments {
    /// The arguments (without the program name) as strings that keep their bytes (see ``RawPath``: a Latin-1 file
    /// name reaches the file system as it was given). A file whose name starts with "-" (`reprise -dash.flac`) is
    /// media, not an unknown option: before a "--" it is given as "./-dash.flac".
    public static func current() -> [String] {
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            RawPath.string(fromBytes: Array(UnsafeRawBufferPointer(start: CommandLine.unsafeArgv[index],
                                                                    count: strlen(CommandLine.unsafeArgv[index]!))))
        }
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        return arguments.enumerated().map { index, argument in
            guard index < end, argument.count > 1, argument.hasPrefix("-"), !argument.hasPrefix("--"),
                  RawPath.withCString(argument, { access($0, F_OK) }) == 0 else { return argument }
            return "./" + argument
        }
    }

    /// The path of the executable `name` in the directory of this process's own executable.
    public static func sibling(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = length > 0 ? String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return (executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? ".") + "/" + name
    }
}
