import Foundation

/// The libFuzzer entry point: each run of `herald-fuzz` exercises one target, named by the
/// environment variable `HERALD_FUZZ_TARGET` (see ``FuzzTarget``). Inputs that make a target
/// crash, trap or fail one of its checks are bugs; errors the code reports are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    selectedTarget.run(bytes)
    return 0
}

/// Read once: the target of this process.
private let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["HERALD_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("set HERALD_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()
