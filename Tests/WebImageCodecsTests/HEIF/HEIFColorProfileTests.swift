import Foundation
import TestSupport
import Testing
@testable import WebImageCodecs
import WebImage

/// An `nclx` box whose code points libheif refuses (found by `FuzzImageHeader`: libheif hands out the profile before
/// it checks them, and the profile was not freed on that failure; LeakSanitizer saw the 52 bytes). The file still
/// reads and decodes, with no colour of its own. The fuzz seed of the same name keeps LeakSanitizer on it.
@Suite struct HEIFColorProfileTests {
    static let file = TestCorpus.packageRoot.appendingPathComponent("Fuzz/Seeds/FuzzImageHeader/heic-nclx-unknown-primaries")

    @Test func refusedNCLXCodePointsLeaveTheImageWithoutColour() throws {
        let data = try Data(contentsOf: Self.file)
        let header = try CodersManager.shared.header(for: data)
        #expect(header.format == .heic && header.pixelSize == PixelSize(width: 16, height: 16))
        let image = try HEIFCoder().decode(data, options: ImageDecodeOptions(colorSpace: .preserve))
        #expect(image.pixels.size == PixelSize(width: 16, height: 16))
        #expect(image.iccProfile == nil)
    }
}
