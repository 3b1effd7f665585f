/// The fuzz targets, by the name `HERALD_FUZZ_TARGET` and the seed corpus folder use.
enum FuzzTarget: String, CaseIterable {
    /// Bytes after the client preface, read by a server's framing layer.
    case framesServer = "frames-server"
    /// Bytes from a server, read by a client's framing layer with requests in flight.
    case framesClient = "frames-client"
    /// HPACK blocks decoded; header lists encoded by ``HeaderBlockEncoder`` and decoded back.
    case hpack
    /// ``JSONParser``, and the same values as Foundation's `JSONSerialization` where both parse.
    case json
    /// ``PayloadLinter`` on any payload and header fields.
    case lint
    /// Device tokens and provider tokens (JWT) as text.
    case tokens
    /// Scenario files (YAML) for `herald device`.
    case scenario

    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .framesServer: FramingFuzz.server(bytes)
        case .framesClient: FramingFuzz.client(bytes)
        case .hpack: HPACKFuzz.run(bytes)
        case .json: JSONFuzz.run(bytes)
        case .lint: LintFuzz.run(bytes)
        case .tokens: TokenFuzz.run(bytes)
        case .scenario: ScenarioFuzz.run(bytes)
        }
    }
}
