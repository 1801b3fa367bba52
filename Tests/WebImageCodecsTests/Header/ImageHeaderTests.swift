import Foundation
import Testing
import TestSupport
import WebImage

/// `CodersManager.header(for:)` against a full decode of the same bytes: every readable file of the corpora and
/// the fixtures, and made files for what the corpora lack (JPEG orientation, APNG, animated WebP).
@Suite struct ImageHeaderTests {
    /// Every corpus and fixture file, relative to the corpus or fixture folder.
    static let files: [URL] = {
        let folders = ["pngsuite/png", "webp", "gif/samples", "gif/crashtest", "gif/regression", "avif", "heif", "jxl"]
            .map { TestCorpus.url($0) }
            + ["jpeg", "png", "webp"].map { TestPaths.fixture($0, "") }
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .filter { ["png", "webp", "gif", "avif", "heic", "heif", "hif", "jxl", "jpg"].contains($0.pathExtension.lowercased()) }
        }.sorted { $0.path < $1.path }
    }()

    /// What a full decode gives, in the header's terms.
    static func decodedHeader(_ data: Data) throws -> ImageHeader {
        let image = try CodersManager.shared.decode(data, options: ImageDecodeOptions(maxPixelCount: .max, maxFrameCount: .max,
                                                                                     maxAnimationPixelCount: .max))
        return ImageHeader(format: image.format, pixelSize: image.pixelSize, orientation: image.orientation,
                           frameCount: image.frameCount, hasAlpha: image.hasAlpha)
    }

    /// Whether `header` says what `decoded` (from ``decodedHeader(_:)``) shows.
    static func agrees(_ header: ImageHeader, with decoded: ImageHeader) -> Bool {
        header.format == decoded.format && header.pixelSize == decoded.pixelSize && header.orientation == decoded.orientation
            && header.frameCount == decoded.frameCount && header.hasAlpha == decoded.hasAlpha
    }

    @Test func theFilesAreThere() {
        #expect(Self.files.count > 300)
    }

    /// A file that decodes has a header saying what the decode shows; one that does not decode may still have a
    /// readable header (a file cut after it), but never a crash.
    @Test func everyDecodableFileHasTheHeaderItsDecodeShows() throws {
        var compared = 0
        for file in Self.files {
            let data = try Data(contentsOf: file)
            guard let decoded = try? Self.decodedHeader(data) else {
                _ = try? CodersManager.shared.header(for: data)
                continue
            }
            let header = try CodersManager.shared.header(for: data)
            #expect(Self.agrees(header, with: decoded), "\(file.lastPathComponent): \(header) vs \(decoded)")
            #expect(header.codedSize.pixelCount >= header.pixelSize.pixelCount, "\(file.lastPathComponent)")
            compared += 1
        }
        #expect(compared > 250)
    }

    @Test(arguments: 1...8)
    func jpegOrientation(exif: Int) throws {
        let jpeg = JPEGTestSupport.withEXIFOrientation(try JPEGTestSupport.baselineJPEG(width: 40, height: 30), exif,
                                                       littleEndian: exif % 2 == 0)
        let header = try CodersManager.shared.header(for: jpeg)
        #expect(Self.agrees(header, with: try Self.decodedHeader(jpeg)))
        #expect(header.orientation == ImageOrientation(exifValue: exif))
        #expect(header.pixelSize == PixelSize(width: 40, height: 30))
        #expect(header.displayedSize == (exif >= 5 ? PixelSize(width: 30, height: 40) : PixelSize(width: 40, height: 30)))
        #expect(header.bitDepth == 8 && !header.hasAlpha && header.frameCount == 1)
    }

    /// Animations made by the library's own encoders.
    @Test(arguments: [ImageFormat.png, .webp, .gif, .avif, .jxl])
    func animations(format: ImageFormat) throws {
        let frames = (0..<3).map { index in
            ImageFrame(pixels: PixelBuffer(width: 24, height: 16, format: .rgba8,
                                           bytes: [UInt8](repeating: UInt8(60 * index), count: 24 * 16 * 4)), duration: 0.1)
        }
        let data = try CodersManager.shared.encode(Image(frames: frames, format: format, hasAlpha: false), as: format,
                                                   options: ImageEncodeOptions(quality: 0.8))
        let header = try CodersManager.shared.header(for: data)
        #expect(header.frameCount == 3, "\(format)")
        #expect(header.pixelSize == PixelSize(width: 24, height: 16), "\(format)")
        #expect(Self.agrees(header, with: try Self.decodedHeader(data)), "\(format)")
    }

    @Test func unreadableHeadersAreTypedErrors() {
        for bytes in [Data(), Data([0xFF, 0xD8, 0xFF]), Data("GIF89a".utf8), Data([0x89, 0x50, 0x4E, 0x47]), Data("nothing".utf8)] {
            #expect(throws: WebImageError.self) { try CodersManager.shared.header(for: bytes) }
        }
    }
}
