import Foundation
import Testing
import WebImage

/// An image stored without bytes is encoded for the disk at ``ImageEncodeEffort/fastest``: the file on disk
/// is exactly what that setting writes, not the explicit-encode default.
@Suite struct CacheStoreEffortTests {
    @Test(arguments: [ImageFormat.png, .webp, .gif])
    func anImageWithoutBytesIsStoredAtTheFastestEffort(format: ImageFormat) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = ImageCache(namespace: "effort", directory: directory.url,
                               configuration: .init(expirationInterval: nil))
        let image = Image(pixels: gradient(width: 64, height: 48), format: format, hasAlpha: true)
        try await cache.storeImage(image, forKey: "thumb", cacheType: .disk)
        let stored = try #require(cache.diskCache.data(forKey: "thumb"))
        let fastest = try CodersManager.shared.encode(image, as: format, options: ImageEncodeOptions(effort: .fastest))
        let balanced = try CodersManager.shared.encode(image, as: format, options: ImageEncodeOptions())
        #expect(stored == fastest)
        #expect(stored != balanced)
        if format == .png {
            // The zlib header of the image data: 0x78 then FLEVEL 0 (fastest).
            let idat = try #require(stored.range(of: Data("IDAT".utf8)))
            #expect(stored[idat.upperBound] == 0x78 && stored[idat.upperBound + 1] >> 6 == 0)
        }
    }

    /// Smooth colour ramps with an alpha ramp: far more than 256 colours.
    private func gradient(width: Int, height: Int) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    out[i] = UInt8(x * 255 / width)
                    out[i + 1] = UInt8(y * 255 / height)
                    out[i + 2] = UInt8((x * y) % 256)
                    out[i + 3] = UInt8(255 - x * 2)
                }
            }
        }
    }
}
