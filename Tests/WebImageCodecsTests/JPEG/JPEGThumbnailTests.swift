import Foundation
import Testing
import TestSupport
@testable import WebImageCodecs
import WebImage

/// Thumbnails and scale-down limits: DCT-domain reduction first, then the exact area resample.
@Suite struct JPEGThumbnailTests {
    @Test func largePhotoThumbnailKeepsAspectOrStretches() async throws {
        // Seconds of work in a debug build: off the cooperative pool (see onDedicatedThread).
        let (fit, stretched) = try await onDedicatedThread {
            let data = try JPEGTestSupport.baselineJPEG(width: 5250, height: 3450, quality: 0.8)
            let fit = try JPEGCoder().decode(data, options: .init(thumbnailPixelSize: PixelSize(width: 400, height: 300)))
            let stretched = try JPEGCoder().decode(data, options: .init(thumbnailPixelSize: PixelSize(width: 400, height: 300),
                                                                        preserveAspectRatio: false))
            return (fit, stretched)
        }
        #expect(fit.pixelSize == PixelSize(width: 400, height: 263))
        #expect(fit.isThumbnail && !fit.hasAlpha)
        #expect(stretched.pixelSize == PixelSize(width: 400, height: 300))
    }

    @Test func scalingPicksTheSmallestDCTFactorStillLargeEnough() {
        let photo = PixelSize(width: 4000, height: 3000)
        #expect(JPEGScaling(source: photo, target: PixelSize(width: 256, height: 192)).scaledSize(photo)
                == PixelSize(width: 500, height: 375))
        #expect(JPEGScaling(source: photo, target: PixelSize(width: 600, height: 450)).scaledSize(photo)
                == PixelSize(width: 1000, height: 750))
        #expect(JPEGScaling(source: photo, target: PixelSize(width: 1500, height: 1125)).scaledSize(photo)
                == PixelSize(width: 2000, height: 1500))
        #expect(JPEGScaling(source: photo, target: PixelSize(width: 2001, height: 1500)).scaledSize(photo) == photo)
        #expect(JPEGScaling(source: photo, target: nil) == .none)
        // 5250×3450 → 400×263: 1/8 gives 657×432.
        let large = PixelSize(width: 5250, height: 3450)
        #expect(JPEGScaling(source: large, target: PixelSize(width: 400, height: 263)).scaledSize(large)
                == PixelSize(width: 657, height: 432))
        // Stretching wider than the source's aspect: the wide side decides.
        #expect(JPEGScaling(source: photo, target: PixelSize(width: 1200, height: 100)).scaledSize(photo)
                == PixelSize(width: 2000, height: 1500))
        // 1024×683 → 256×171: 1/4 would give 256×171 from a rounded-up last row (683 < 4 × 171), so 1/2, as
        // libvips chooses (imgproxy's shrink: min(1024 / 256, 683 / 171) = 3.99 → 2).
        let photo3x2 = PixelSize(width: 1024, height: 683)
        #expect(JPEGScaling(source: photo3x2, target: PixelSize(width: 256, height: 171)).scaledSize(photo3x2)
                == PixelSize(width: 512, height: 342))
        #expect(JPEGScaling(source: photo3x2, target: PixelSize(width: 256, height: 170)).scaledSize(photo3x2)
                == PixelSize(width: 256, height: 171))
    }

    /// A 12 MP photo to a 256-pixel thumbnail goes through the 1/8 IDCT: the result matches resampling a
    /// full decode closely (the IDCT's own averaging differs by a little) and is exactly 256×192.
    @Test func twelveMegapixelThumbnailThroughDCTScale() async throws {
        // Over ten seconds in a debug build: off the cooperative pool (see onDedicatedThread).
        let (thumbnail, psnr) = try await onDedicatedThread {
            let data = try JPEGTestSupport.baselineJPEG(width: 4000, height: 3000, quality: 0.85)
            let thumbnail = try JPEGCoder().decode(data, options: .init(thumbnailPixelSize: PixelSize(width: 256, height: 256)))
            let full = try JPEGCoder().decode(data, options: .init())
            let reference = Resampler.resample(full.pixels, to: PixelSize(width: 256, height: 192))
            return (thumbnail, JPEGTestSupport.psnr(thumbnail.pixels, reference))
        }
        #expect(thumbnail.pixelSize == PixelSize(width: 256, height: 192))
        #expect(thumbnail.isThumbnail)
        #expect(psnr > 30)
    }

    @Test func scaleDownLimitUsesTheSamePath() throws {
        let data = try JPEGTestSupport.baselineJPEG(width: 2000, height: 2000, quality: 0.8)
        let image = try JPEGCoder().decode(data, options: .init(scaleDownLimitBytes: 4_000_000))
        #expect(image.pixelSize == PixelSize(width: 1000, height: 1000))
        #expect(image.isThumbnail)
    }

    @Test func smallImagesAreNeverEnlarged() throws {
        let data = try JPEGTestSupport.baselineJPEG(width: 80, height: 60)
        let image = try JPEGCoder().decode(data, options: .init(thumbnailPixelSize: PixelSize(width: 400, height: 400)))
        #expect(image.pixelSize == PixelSize(width: 80, height: 60))
    }
}
