import Foundation
import Testing
import TestSupport
@testable import WebImageCodecs
import WebImageCore

@Suite struct ColorConversionCacheTests {
    @Test func buildsOneConversionPerDistinctProfileAndLayout() throws {
        let cache = ColorConversionCache(capacity: 4)
        let p3 = [UInt8](TestProfiles.displayP3), adobe = [UInt8](TestProfiles.adobeRGB)
        for _ in 0..<5 {
            _ = try cache.conversion(for: p3, layout: .rgba(.rgba8)).get()
            _ = try cache.conversion(for: adobe, layout: .rgba(.rgba8)).get()
        }
        #expect(cache.buildCount == 2)
        _ = try cache.conversion(for: p3, layout: .rgba(.rgba16)).get()
        #expect(cache.buildCount == 3)
    }

    @Test func staysWithinItsCapacity() throws {
        let cache = ColorConversionCache(capacity: 1)
        let p3 = [UInt8](TestProfiles.displayP3), adobe = [UInt8](TestProfiles.adobeRGB)
        _ = try cache.conversion(for: p3, layout: .rgba(.rgba8)).get()
        _ = try cache.conversion(for: adobe, layout: .rgba(.rgba8)).get()
        _ = try cache.conversion(for: p3, layout: .rgba(.rgba8)).get()
        #expect(cache.buildCount == 3)
    }

    /// A broken profile is remembered with its reason, not parsed again.
    @Test func brokenProfilesAreRememberedAsFailures() {
        let cache = ColorConversionCache(capacity: 4)
        let garbage = [UInt8](repeating: 0x41, count: 200)
        for _ in 0..<3 {
            guard case .failure(let failure) = cache.conversion(for: garbage, layout: .rgba(.rgba8)) else {
                Issue.record("garbage accepted as a profile")
                return
            }
            #expect(failure.reason == "lcms2 could not read the embedded ICC profile")
        }
        #expect(cache.buildCount == 1)
        // An RGB profile cannot describe CMYK samples.
        #expect((try? cache.conversion(for: [UInt8](TestProfiles.adobeRGB), layout: .cmyk(inverted: false)).get()) == nil)
    }
}
