import Foundation

/// A new, empty folder of the tests' own under the temporary directory: `reprise-NAME-UUID`.
public func makeTemporaryFolder(_ name: String) throws -> String {
    let folder = NSTemporaryDirectory() + "reprise-\(name)-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}
