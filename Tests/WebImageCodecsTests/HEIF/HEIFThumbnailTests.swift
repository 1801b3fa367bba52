import CHEIF
import Foundation
import TestSupport
import Testing
import WebImage

/// The embedded thumbnail is decoded instead of the primary image when it is at least the requested size.
///
/// The fixture is built here with libheif: a blue 256 × 192 primary image with a red thumbnail that libheif
/// scales to fit 64 × 64 (64 × 48), so the colour of the result tells which one was decoded.
@Suite struct HEIFThumbnailTests {
    static let blue: [UInt8] = [20, 40, 220, 255]
    static let red: [UInt8] = [220, 30, 30, 255]

    static func fileWithThumbnail() throws -> Data {
        let context = try #require(heif_context_alloc())
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        #expect(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder).code == heif_error_Ok)
        defer { heif_encoder_release(encoder) }
        _ = heif_encoder_set_lossy_quality(encoder, 90)
        let primary = try solidImage(width: 256, height: 192, Self.blue)
        defer { heif_image_release(primary) }
        var handle: OpaquePointer?
        #expect(heif_context_encode_image(context, primary, encoder, nil, &handle).code == heif_error_Ok)
        defer { heif_image_handle_release(handle) }
        let thumbnail = try solidImage(width: 256, height: 192, Self.red)
        defer { heif_image_release(thumbnail) }
        var thumbnailHandle: OpaquePointer?
        #expect(heif_context_encode_thumbnail(context, thumbnail, handle, encoder, nil, 64, &thumbnailHandle).code
                == heif_error_Ok)
        defer { heif_image_handle_release(thumbnailHandle) }
        final class Sink { var data = Data() }
        let sink = Sink()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, bytes, size, userdata in
            Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue().data
                .append(bytes!.assumingMemoryBound(to: UInt8.self), count: size)
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        #expect(withExtendedLifetime(sink) {
            heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()).code
        } == heif_error_Ok)
        return sink.data
    }

    private static func solidImage(width: Int, height: Int, _ rgba: [UInt8]) throws -> OpaquePointer {
        var image: OpaquePointer?
        #expect(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, heif_chroma_interleaved_RGB,
                                  &image).code == heif_error_Ok)
        let made = try #require(image)
        #expect(heif_image_add_plane(made, heif_channel_interleaved, Int32(width), Int32(height), 8).code == heif_error_Ok)
        var stride: Int32 = 0
        let plane = try #require(heif_image_get_plane(made, heif_channel_interleaved, &stride))
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 { plane[y * Int(stride) + x * 3 + c] = rgba[c] }
            }
        }
        return made
    }

    private func centre(_ image: Image) -> [UInt8] {
        image.pixels.rgba8(x: image.pixelWidth / 2, y: image.pixelHeight / 2)
    }

    private func isClose(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 12 }
    }

    @Test func fullSizeDecodeIsThePrimaryImage() throws {
        let image = try HEIFCoder().decode(try Self.fileWithThumbnail(), options: .init())
        #expect(image.pixelSize == PixelSize(width: 256, height: 192))
        #expect(isClose(centre(image), Self.blue))
        #expect(!image.isThumbnail)
    }

    @Test(arguments: [(64, 64), (40, 40), (64, 48)])
    func smallRequestsUseTheEmbeddedThumbnail(width: Int, height: Int) throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: .init(width: width, height: height))
        let image = try HEIFCoder().decode(try Self.fileWithThumbnail(), options: options)
        #expect(image.pixelSize == ImageGeometry.thumbnailSize(source: .init(width: 256, height: 192),
                                                               requested: .init(width: width, height: height),
                                                               preserveAspectRatio: true))
        #expect(image.isThumbnail)
        #expect(isClose(centre(image), Self.red))
    }

    @Test func requestsLargerThanTheThumbnailUseThePrimaryImage() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: .init(width: 100, height: 100))
        let image = try HEIFCoder().decode(try Self.fileWithThumbnail(), options: options)
        #expect(image.pixelSize == PixelSize(width: 100, height: 75))
        #expect(isClose(centre(image), Self.blue))
    }

    @Test func scaleDownLimitUsesTheThumbnailWhenItIsLargeEnough() throws {
        let options = ImageDecodeOptions(scaleDownLimitBytes: 48 * 36 * 4)
        let image = try HEIFCoder().decode(try Self.fileWithThumbnail(), options: options)
        #expect(image.pixelSize == PixelSize(width: 48, height: 36))
        #expect(isClose(centre(image), Self.red))
    }

    /// The corpus file with a thumbnail decodes at full size by default and from the thumbnail for small sizes.
    @Test func corpusThumbnailFile() throws {
        let data = try TestCorpus.data("heif/colors-no-alpha-thumbnail.heic")
        #expect(try HEIFCoder().decode(data, options: .init()).pixelSize == PixelSize(width: 72, height: 72))
        let small = try HEIFCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 8, height: 8)))
        #expect(small.pixelSize == PixelSize(width: 8, height: 8))
        #expect(small.isThumbnail)
    }
}
