/// Latencies in fixed memory: log-linear buckets (16 per power of two of microseconds), so a run
/// of any length costs the same memory and percentiles are within about 6 %.
struct LatencyHistogram {
    private static let subBuckets = 16
    private var counts = [Int](repeating: 0, count: 40 * LatencyHistogram.subBuckets)
    private(set) var count = 0
    private(set) var maximumMicroseconds = 0

    mutating func record(microseconds: Int) {
        let value = max(1, microseconds)
        counts[Self.bucket(for: value)] += 1
        count += 1
        maximumMicroseconds = max(maximumMicroseconds, value)
    }

    /// The latency below which `fraction` (0…1) of the recorded ones fall, in microseconds.
    func percentile(_ fraction: Double) -> Int {
        guard count > 0 else { return 0 }
        let rank = Int((Double(count) * fraction).rounded(.up))
        var seen = 0
        for (index, bucketCount) in counts.enumerated() {
            seen += bucketCount
            if seen >= rank { return min(Self.upperBound(of: index), maximumMicroseconds) }
        }
        return maximumMicroseconds
    }

    private static func bucket(for value: Int) -> Int {
        if value < subBuckets { return value }
        let exponent = Int.bitWidth - value.leadingZeroBitCount - 1          // value in [2^e, 2^(e+1))
        let offset = (value >> (exponent - 4)) & (subBuckets - 1)            // 4 bits below the top one
        return min((exponent - 3) * subBuckets + offset, 40 * subBuckets - 1)
    }

    private static func upperBound(of bucket: Int) -> Int {
        if bucket < subBuckets { return bucket }
        let exponent = bucket / subBuckets + 3
        let offset = bucket % subBuckets
        return (subBuckets + offset + 1) << (exponent - 4)
    }
}
