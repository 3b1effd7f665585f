import ArgumentParser
import Foundation
import HeraldCore

/// `herald lint FILE|-`: checks a payload (and optionally headers) the way APNs and iOS will.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a payload as APNs and iOS will treat it.",
        discussion: """
            Errors are what APNs rejects; warnings are what it accepts but the device then silently \
            mishandles. Exit status: 0 without errors, 1 with errors, 64 for bad arguments or an unreadable file.
            Give header options to check the headers too; without them the payload is checked for the \
            push type it calls for.
            """
    )

    @Argument(help: "The payload file, or - for standard input.")
    var file: String?

    @Flag(help: "Print the diagnostics as JSON.")
    var json = false

    @Flag(help: "List every rule (code, severity, summary) and exit.")
    var rules = false

    @Option(help: "apns-push-type to check against (alert, background, voip, liveactivity, …).")
    var pushType: String?

    @Option(help: "apns-topic to check.")
    var topic: String?

    @Option(help: "apns-priority to check (10, 5 or 1).")
    var priority: String?

    @Option(help: "apns-collapse-id to check.")
    var collapseID: String?

    @Option(help: "apns-expiration to check (UNIX seconds, 0 = deliver now or never).")
    var expiration: String?

    @Option(help: "apns-id to check.")
    var apnsID: String?

    @Option(help: "How the request authenticates: token or certificate (checks topic and push-type rules).")
    var auth: AuthenticationMethod?

    func run() async throws {
        if rules {
            for rule in DiagnosticCode.catalog {
                print("\(rule.code.rawValue.padding(toLength: 38, withPad: " ", startingAt: 0)) \(rule.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(rule.summary)")
            }
            return
        }
        guard let file else {
            throw ValidationError("give a payload file, or - to read standard input")
        }
        let bytes = try readInput(file, command: "lint")
        let diagnostics = PayloadLinter(options: LintOptions(authentication: auth, now: Date()))
            .lint(payload: bytes, headers: headerFields)
        if json {
            let report = LintReport(source: file, diagnostics: diagnostics)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(DiagnosticFormatter(source: file == "-" ? "<stdin>" : file).format(diagnostics))
        }
        if diagnostics.hasErrors { throw ExitCode(1) }
    }

    /// The header fields given on the command line, or `nil` when none was.
    var headerFields: [(name: String, value: String)]? {
        let fields: [(String, String?)] = [
            (HeaderName.pushType, pushType), (HeaderName.topic, topic), (HeaderName.priority, priority),
            (HeaderName.collapseID, collapseID), (HeaderName.expiration, expiration), (HeaderName.id, apnsID),
        ]
        let given = fields.compactMap { name, value in value.map { (name: name, value: $0) } }
        return given.isEmpty && auth == nil ? nil : given
    }
}

/// The `--json` output of `herald lint`.
struct LintReport: Encodable {
    let source: String
    let diagnostics: [Diagnostic]
    let errors: Int
    let warnings: Int
    let infos: Int

    init(source: String, diagnostics: [Diagnostic]) {
        self.source = source
        self.diagnostics = diagnostics
        self.errors = diagnostics.filter { $0.severity == .error }.count
        self.warnings = diagnostics.filter { $0.severity == .warning }.count
        self.infos = diagnostics.filter { $0.severity == .info }.count
    }
}

extension AuthenticationMethod: ExpressibleByArgument {}

/// Reads a file, or standard input for `-`; an unreadable file is reported on standard error
/// with exit status 64, apart from the 1 that means "the payload has errors". Pipes and other
/// special files (`/dev/stdin`, `<(…)`) are read to their end, like regular files. More than
/// 1 GiB is refused (a file of 15 million device tokens is that large): reading on would only
/// exhaust memory.
func readInput(_ path: String, command: String) throws -> [UInt8] {
    let maximumInputBytes = 1 << 30
    let handle: FileHandle
    if path == "-" {
        handle = FileHandle.standardInput
    } else {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandError("no file at \(path)").exit(command: command)
        }
        guard !isDirectory.boolValue else {
            throw CommandError("cannot read \(path): it is a directory; give a file, or - for standard input").exit(command: command)
        }
        guard let opened = FileHandle(forReadingAtPath: path) else {
            throw CommandError("cannot read \(path): permission denied or not a readable file").exit(command: command)
        }
        handle = opened
    }
    defer { if path != "-" { try? handle.close() } }
    var bytes: [UInt8] = []
    do {
        while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
            bytes += chunk
            if bytes.count > maximumInputBytes {
                throw CommandError("\(path == "-" ? "standard input" : path) is larger than 1 GiB; Herald reads payloads, token lists and scenarios up to that size").exit(command: command)
            }
        }
    } catch let exit as ExitCode {
        throw exit
    } catch {
        throw CommandError("cannot read \(path == "-" ? "standard input" : path): \(error.localizedDescription)").exit(command: command)
    }
    return bytes
}
