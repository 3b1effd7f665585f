/// Why a scenario file could not be read, with the line it is about.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}
