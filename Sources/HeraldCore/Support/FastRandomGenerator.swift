/// A fast, non-cryptographic random number generator (xoshiro256**) for values that must be
/// unique but not secret, such as `apns-id`s made by the thousand per second. Seed one per
/// connection or task from the system generator; it is not thread-safe.
public struct FastRandomGenerator: RandomNumberGenerator, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// Seeds from the system's secure generator.
    public init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }

    /// A reproducible sequence for a seed.
    public init(seed: UInt64) {
        // SplitMix64 spreads the seed over the four words, as the algorithm's authors advise.
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (splitMix(), splitMix(), splitMix(), splitMix())
    }

    public mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}
