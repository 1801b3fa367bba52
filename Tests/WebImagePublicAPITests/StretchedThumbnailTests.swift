import Foundation
import Testing
import WebImage

/// SDWebImage's coders decode the full image whenever it fits inside the thumbnail size
/// (`createFullImage` in `SDImageIOAnimatedCoder`, `shouldScaleUp:NO` in the WebP, AVIF and JXL coders): a
/// decode-time thumbnail never enlarges, stretched or not.
@Suite struct StretchedThumbnailTests {
    static let formats: [ImageFormat] = [.jpeg, .png, .gif, .webp, .avif, .heic, .jxl]

    static func encoded(_ format: ImageFormat, width: Int, height: Int) throws -> Data {
        let bytes = (0..<width * height).flatMap { index -> [UInt8] in [UInt8(index % 251), UInt8(index % 13 * 19), 90, 255] }
        let image = Image(pixels: PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes), hasAlpha: false)
        return try CodersManager.shared.encode(image, as: format, options: ImageEncodeOptions(quality: 0.9))
    }

    @Test(arguments: formats)
    func anImageThatFitsIsNotEnlarged(format: ImageFormat) throws {
        let data = try Self.encoded(format, width: 80, height: 60)
        for preserveAspectRatio in [false, true] {
            let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 400, height: 400),
                                             preserveAspectRatio: preserveAspectRatio)
            let image = try CodersManager.shared.decode(data, options: options)
            #expect(image.pixelSize == PixelSize(width: 80, height: 60), "\(format) preserve=\(preserveAspectRatio)")
            #expect(!image.isThumbnail, "\(format)")
            #expect(image.decodeOptions == options, "\(format)")
        }
    }

    /// One side larger than asked: stretched to exactly the thumbnail size, as SDWebImage's ImageIO coder does.
    @Test(arguments: formats)
    func anImageLargerOnOneSideIsStretchedToTheThumbnailSize(format: ImageFormat) throws {
        let data = try Self.encoded(format, width: 80, height: 60)
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 40, height: 100), preserveAspectRatio: false)
        let image = try CodersManager.shared.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 40, height: 100), "\(format)")
        #expect(image.isThumbnail, "\(format)")
    }
}
