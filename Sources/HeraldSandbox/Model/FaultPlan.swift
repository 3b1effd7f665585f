import HeraldCore

/// Failures the sandbox injects so clients can be tested against a misbehaving APNs.
///
/// Answers come first from ``script`` (in order, one per request), then at random by ``rates``.
/// A bare status answers its usual reason (429 `TooManyRequests`, 500 `InternalServerError`,
/// 503 `ServiceUnavailable`); any other documented pair is written as `"503 Shutdown"` (see
/// ``FaultAnswer``). Every field is optional in JSON: what is left out is not injected.
public struct FaultPlan: Sendable, Hashable, Codable {
    /// Answers to the next requests, one each, before anything else.
    public var script: [FaultAnswer]
    /// Probability (0…1) of each answer, per request, keyed as a ``FaultAnswer`` is written
    /// (`"500"`, `"503 Shutdown"`); together at most 1, one answer per request.
    public var rates: [String: Double]
    /// Added to every answer, in milliseconds.
    public var latencyMilliseconds: Int
    /// Send GOAWAY (reason `Shutdown`) on a connection after it has carried this many streams.
    public var goAwayAfterStreams: Int?
    /// Close a connection abruptly (no GOAWAY) after it has carried this many streams.
    public var resetAfterStreams: Int?

    public init(
        script: [FaultAnswer] = [], rates: [String: Double] = [:], latencyMilliseconds: Int = 0,
        goAwayAfterStreams: Int? = nil, resetAfterStreams: Int? = nil
    ) {
        self.script = script
        self.rates = rates
        self.latencyMilliseconds = latencyMilliseconds
        self.goAwayAfterStreams = goAwayAfterStreams
        self.resetAfterStreams = resetAfterStreams
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case script, rates, latencyMilliseconds, goAwayAfterStreams, resetAfterStreams
    }

    /// Reads a plan in which every field may be left out; an unknown field is an error naming
    /// the allowed ones (a typo such as `"latency"` would otherwise inject nothing, silently).
    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = keys.first(where: { CodingKeys(rawValue: $0) == nil }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [AnyKey(stringValue: unknown)],
                debugDescription: "unknown field \"\(unknown)\"; allowed: " + CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
            ))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Whole numbers read here: Foundation calls 1.5 or 1e20 "not valid JSON", with no field.
        func whole(_ key: CodingKeys) throws -> Int? {
            guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
            if let value = try? container.decode(Int.self, forKey: key) { return value }
            let shown = (try? container.decode(Double.self, forKey: key)).map { "\($0)" } ?? "something else"
            throw DecodingError.dataCorrupted(.init(codingPath: [key], debugDescription: "must be a whole number, such as 50; got \(shown)"))
        }
        self.init(
            script: try container.decodeIfPresent([FaultAnswer].self, forKey: .script) ?? [],
            rates: try container.decodeIfPresent([String: Double].self, forKey: .rates) ?? [:],
            latencyMilliseconds: try whole(.latencyMilliseconds) ?? 0,
            goAwayAfterStreams: try whole(.goAwayAfterStreams),
            resetAfterStreams: try whole(.resetAfterStreams)
        )
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// True when nothing is injected.
    public var isEmpty: Bool {
        script.isEmpty && rates.values.allSatisfy { $0 <= 0 } && latencyMilliseconds == 0
            && goAwayAfterStreams == nil && resetAfterStreams == nil
    }

    /// The rates with their keys read, in key order (call after ``validate()``).
    public var answerRates: [(answer: FaultAnswer, rate: Double)] {
        rates.sorted { $0.key < $1.key }.compactMap { key, rate in (try? FaultAnswer(text: key)).map { ($0, rate) } }
    }

    /// Checks rates and bounds, saying what is allowed (script answers are checked when made).
    /// Rates are of distinct answers (`"503"` and `"ServiceUnavailable"` are one) and add up to
    /// at most 1: each request gets at most one of them.
    public func validate() throws(SandboxError) {
        var seen: [FaultAnswer: String] = [:]
        for (key, rate) in rates.sorted(by: { $0.key < $1.key }) {
            let answer = try FaultAnswer(text: key)
            guard (0...1).contains(rate) else { throw .invalid("fault rate \(rate) for \(key) is outside 0…1") }
            if let other = seen[answer] { throw .invalid("fault rates \"\(other)\" and \"\(key)\" are the same answer (\(answer)); give it once") }
            seen[answer] = key
        }
        let total = rates.values.reduce(0, +)
        guard total <= 1.000_001 else {
            throw .invalid("fault rates add up to \(total); each request gets at most one answer, so they must add up to 1 or less")
        }
        guard latencyMilliseconds >= 0, latencyMilliseconds <= 60_000 else {
            throw .invalid("latency \(latencyMilliseconds) ms is outside 0…60000")
        }
        if let count = goAwayAfterStreams, count < 1 { throw .invalid("goAwayAfterStreams must be at least 1") }
        if let count = resetAfterStreams, count < 1 { throw .invalid("resetAfterStreams must be at least 1") }
    }
}
