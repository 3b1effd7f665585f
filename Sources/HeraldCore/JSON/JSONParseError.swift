/// Why a document is not valid JSON, and where: byte offset plus 1-based line and column
/// (columns count characters, so a message points at the right place in Chinese text too).
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte offset of the problem in the document.
    public let offset: Int
    /// 1-based line of the problem.
    public let line: Int
    /// 1-based column (in characters) of the problem.
    public let column: Int
    /// What was wrong and what JSON allows there.
    public let message: String

    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
