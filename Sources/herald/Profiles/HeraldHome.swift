import Foundation

/// Where `herald` keeps its files: `$HERALD_HOME`, else `$XDG_CONFIG_HOME/herald`, else
/// `~/.config/herald`. Made on first use, readable by the user only.
struct HeraldHome {
    let url: URL

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let home = environment["HERALD_HOME"], !home.isEmpty {
            url = URL(fileURLWithPath: home)
        } else if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty {
            url = URL(fileURLWithPath: config).appendingPathComponent("herald")
        } else {
            url = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/herald")
        }
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes a file only the user can read (0600) in a folder only the user can open (0700).
    func writePrivately(_ data: Data, to name: String) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = file(name).path
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try data.write(to: file(name))
    }

    /// Appends a line to a private file.
    func appendPrivately(_ line: String, to name: String) throws {
        let path = file(name).path
        if !FileManager.default.fileExists(atPath: path) { try writePrivately(Data(), to: name) }
        let handle = try FileHandle(forWritingTo: file(name))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }
}
