import Synchronization

/// The conversions built so far, one per distinct profile and pixel layout, so a feed of photos from one
/// camera or phone builds one lcms2 transform, not one per image.
///
/// Keyed by a 64-bit FNV-1a hash of the profile bytes (the bytes themselves are compared on a hit). Bounded:
/// past ``capacity`` entries the least recently used one goes. Profiles that cannot be used are remembered
/// too, with their reason, so a broken profile is not parsed again for every image.
final class ColorConversionCache: Sendable {
    /// The cache every decoder uses.
    static let shared = ColorConversionCache(capacity: 32)

    /// The most conversions kept.
    let capacity: Int
    private let state = Mutex(State())

    private struct Key: Hashable {
        let hash: UInt64
        let profile: [UInt8]
        let layout: ColorSourceLayout

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
            hasher.combine(layout)
        }
    }

    private struct Entry {
        let conversion: Result<ColorConversion, ColorProfileFailure>
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        /// How many conversions were built (for tests of the caching itself).
        var builds = 0
    }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many conversions this cache has built since it was made.
    var buildCount: Int { state.withLock { $0.builds } }

    /// The conversion for `profile` on `layout`, built on first use.
    func conversion(for profile: [UInt8], layout: ColorSourceLayout) -> Result<ColorConversion, ColorProfileFailure> {
        let key = Key(hash: Self.fnv1a(profile), profile: profile, layout: layout)
        if let hit = state.withLock({ state -> Result<ColorConversion, ColorProfileFailure>? in
            state.clock += 1
            state.entries[key]?.lastUse = state.clock
            return state.entries[key]?.conversion
        }) {
            return hit
        }
        // Built outside the lock (it parses the profile and precomputes lcms2's tables); two threads may race
        // to build the same one, and the first stored wins.
        let built = Result { () throws(ColorProfileFailure) in try ColorConversion(profile: profile, layout: layout) }
        return state.withLock { state in
            state.clock += 1
            if let existing = state.entries[key] { return existing.conversion }
            state.builds += 1
            if state.entries.count >= capacity,
               let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.entries[oldest] = nil
            }
            state.entries[key] = Entry(conversion: built, lastUse: state.clock)
            return built
        }
    }

    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
