import Foundation
import Logging
import WebImage

/// An image of the operator's given by URL (imgproxy's `IMGPROXY_WATERMARK_URL`, `IMGPROXY_FALLBACK_IMAGE_URL`):
/// downloaded once, at start-up, before the service listens. Its setting is the URL alone (what it reflects);
/// where it was given only names it in errors.
struct OperatorImageSource: Sendable, CustomReflectable {
    var url: URL
    /// The flag or variable that gave it, named in errors.
    var origin: String

    /// An http(s) URL from an option; anything else stops the start-up naming the option.
    init(_ given: ServeOption.Given) throws {
        guard let url = URL(string: given.text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              url.host?.isEmpty == false else {
            throw given.failure("give an http or https URL")
        }
        self.url = url
        origin = given.origin
    }

    var given: ServeOption.Given { ServeOption.Given(values: [url.absoluteString], origin: origin) }

    var customMirror: Mirror { Mirror(self, children: ["url": url]) }
}

extension ServeSettings {
    /// Downloads the images given by URL, unless a path or data option gave that image already (imgproxy's
    /// order: data, then path, then URL). The URL is the operator's, so no source policy applies; the bytes
    /// are bounded as a path's are (10 MB, within 10 s).
    mutating func downloadOperatorImages() async throws {
        if configuration.processing.watermark == nil, let source = watermarkSource {
            let bytes = try await Self.download(source)
            configuration.processing.watermark = try ServeOptions.watermark(bytes, given: source.given)
        }
        if configuration.processing.fallbackImage == nil, let source = fallbackImageSource {
            let bytes = try await Self.download(source)
            configuration.processing.fallbackImage = try ServeOptions.checkedImage(bytes, given: source.given)
        }
    }

    private static func download(_ source: OperatorImageSource) async throws -> Data {
        var configuration = ImageDownloader.Configuration(downloadTimeout: .seconds(10), totalDownloadTimeout: .seconds(10),
                                                          maxResponseBytes: 10 << 20)
        // Logging is not started yet, and the failure is the start-up's one line.
        configuration.logger = Logger(label: "SwiftWebImage.serve.operatorImages") { _ in SwiftLogNoOpLogHandler() }
        let downloader = ImageDownloader(configuration: configuration)
        do {
            let downloaded = try await downloader.data(for: ImageDownloadRequest(url: source.url))
            try? await downloader.shutdown()
            return downloaded.data
        } catch {
            try? await downloader.shutdown()
            throw CLIFailure(subject: source.origin, reason: "cannot download '\(source.url.absoluteString)': \(error)")
        }
    }
}

/// The operator's images given inline: their bytes bounded and checked at start-up, so a bad one stops it naming
/// its option.
extension ServeOptions {
    /// The bytes of an image a `…-path` option names (`base64` false) or a `…-data` option holds, at most 10 MB.
    static func imageBytes(_ given: ServeOption.Given, base64: Bool) throws -> Data {
        let bytes: Data
        if base64 {
            guard let data = Data(base64Encoded: given.text) else { throw given.failure("give base64") }
            bytes = data
        } else {
            guard let data = FileManager.default.contents(atPath: given.text) else {
                throw CLIFailure(subject: given.origin, reason: "cannot read '\(given.text)'")
            }
            bytes = data
        }
        guard bytes.count <= 10 << 20 else {
            throw CLIFailure(subject: given.origin, reason: "the image is \(bytes.count) bytes: give at most 10 MB")
        }
        return bytes
    }

    /// Image bytes whose header the coders read, checked now so a bad image stops the start-up naming its option.
    static func checkedImage(_ data: Data, given: ServeOption.Given) throws -> Data {
        do {
            _ = try CodersManager.shared.header(for: data)
        } catch {
            throw CLIFailure(subject: given.origin, reason: "not a usable image: \(error)")
        }
        return data
    }

    /// The watermark image decoded now, within bounds, so a bad one stops the start-up naming its option.
    static func watermark(_ data: Data, given: ServeOption.Given) throws -> Image {
        do {
            return try CodersManager.shared.decode(data, options: ImageDecodeOptions(firstFrameOnly: true,
                                                                                     applyOrientation: true,
                                                                                     maxPixelCount: 16 << 20))
        } catch {
            throw CLIFailure(subject: given.origin, reason: "the watermark is not a usable image: \(error)")
        }
    }
}
