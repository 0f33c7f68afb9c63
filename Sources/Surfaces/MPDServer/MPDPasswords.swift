import Glibc
import MPDProtocol

/// MPD's passwords: lines `PASSWORD@read,add,control,admin` from the password file, and what a client that sent
/// none may do.
public struct MPDPasswords: Sendable {
    public let defaultPermissions: MPDPermissions
    private let byPassword: [String: MPDPermissions]

    /// Parses the file's `text`; a line that is not `PASSWORD@PERMISSIONS` is an error naming it.
    public init(text: String?, defaultPermissions: MPDPermissions) throws(MPDError) {
        self.defaultPermissions = defaultPermissions
        var found: [String: MPDPermissions] = [:]
        for (number, line) in (text ?? "").split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.filter { $0 != "\r" }
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            guard let at = trimmed.lastIndex(of: "@"), at != trimmed.startIndex,
                  let permissions = MPDPermissions(list: String(trimmed[trimmed.index(after: at)...])) else {
                throw MPDError(.argument, "line \(number + 1): expected PASSWORD@read,add,control,admin")
            }
            found[String(trimmed[..<at])] = permissions
        }
        byPassword = found
    }

    /// The permissions `password` gives, nil for a wrong one.
    public func permissions(for password: String) -> MPDPermissions? { byPassword[password] }
}

extension MPDPasswords {
    /// Reads the password file at `path`: a regular file of the user's own, readable by no one else (else refused,
    /// with why), at most 64 KiB.
    public static func load(path: String?, defaultPermissions: MPDPermissions) -> Result<MPDPasswords, MPDError> {
        guard let path else { return .success(try! MPDPasswords(text: nil, defaultPermissions: defaultPermissions)) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else { return .failure(MPDError(.system, "\(path): \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(MPDError(.system, "\(path) is not a regular file")) }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            return .failure(MPDError(.system, "\(path) must be the user's own and readable by no one else (chmod 600)"))
        }
        guard info.st_size <= 65536 else { return .failure(MPDError(.system, "\(path) is larger than 64 KiB")) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return .failure(MPDError(.system, "\(path): \(String(cString: strerror(errno)))")) }
        do throws(MPDError) {
            return .success(try MPDPasswords(text: String(decoding: bytes[..<count], as: UTF8.self), defaultPermissions: defaultPermissions))
        } catch {
            return .failure(MPDError(.system, "\(path): \(error.message)"))
        }
    }
}
