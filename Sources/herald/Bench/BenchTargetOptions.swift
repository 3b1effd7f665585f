import ArgumentParser
import HeraldAPNs

/// The options both benchmarks share: where to send and over how many connections and streams.
struct BenchTargetOptions: ParsableArguments {
    @Option(name: [.short, .customLong("connections")], help: "HTTP/2 connections.")
    var connections = 4

    @Option(name: [.customShort("m"), .customLong("streams")], help: "Concurrent streams per connection.")
    var streams = 100

    @Option(help: "Send to this server (https://host:port or http://host:port, e.g. a `herald sandbox`) instead of an in-process sandbox.")
    var url: String?

    @Option(help: "PEM certificate to trust for --url.")
    var cacert: String?

    func validate() throws {
        if connections < 1 || streams < 1 { throw ValidationError("--connections and --streams must be at least 1") }
        if let url, APNsServerURL(url) == nil { throw ValidationError("--url must look like \(APNsServerURL.expectedForm); got '\(url)'") }
    }

    /// Takes the target and the certificate to trust from a profile, when not given here. A
    /// benchmark goes only to a server named by URL: a profile that targets Apple is refused.
    mutating func fill(from saved: Profile, command: String) throws {
        guard url == nil else { return }
        guard let target = saved.target, APNsServerURL(target) != nil else {
            throw CommandError(
                "profile '\(saved.name)' sends to Apple (\(saved.target ?? "sandbox")); a benchmark sends only to a server you run: give --url"
            ).exit(command: command)
        }
        url = target
        if cacert == nil { cacert = saved.cacert }
    }
}
