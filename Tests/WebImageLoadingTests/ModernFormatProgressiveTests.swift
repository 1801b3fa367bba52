import Foundation
import TestSupport
import Testing
import WebImage

/// AVIF and HEIC downloaded with `progressiveLoad`: libavif and libheif decode only whole files, so no partial
/// image is shown and the final image arrives as without the option.
@Suite struct ModernFormatProgressiveTests {
    @Test(arguments: [("avif/kimono.mirror-horizontal.avif", "image/avif", ImageFormat.avif, 722, 1024),
                      ("heif/zPug_3.heic", "image/heic", .heic, 64, 64)])
    func drippedFileGivesNoPartialsThenTheFinalImage(path: String, contentType: String, format: ImageFormat,
                                                     width: Int, height: Int) async throws {
        let configuration = ImageDownloader.Configuration(minimumPartialDecodeInterval: .zero)
        try await withLoader(configuration, coders: .shared) { server, downloader in
            let file = TestCorpus.url(path)
            let size = try Data(contentsOf: file).count
            try server.serveFile("/f", from: file, contentType: contentType,
                                 behavior: .drip(chunkSize: size / 6 + 1, interval: .milliseconds(40)))
            let partials = Recorder<Image>()
            let final = try await downloader.image(
                for: ImageDownloadRequest(url: server.url("/f"), options: .progressiveLoad),
                partialImage: { partials.append($0) })
            #expect(partials.count == 0)
            #expect(final.image.format == format)
            #expect(!final.image.isIncremental)
            #expect(final.image.pixelSize == PixelSize(width: width, height: height))
        }
    }
}
