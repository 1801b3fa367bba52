#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Spawning
import WebImage

/// The child side of PDF rendering (``ImageProxyConfiguration/PDFRendering``): reads one request on standard
/// input, bounds its own memory and CPU time before reading the document, draws the page with poppler and
/// writes the pixels or the failure on standard output.
///
/// An executable that serves images calls it when started with its PDF arguments (`webimage pdf-page`):
///
/// ```swift
/// if CommandLine.arguments.dropFirst() == ["pdf-page"] { exit(PDFPageChild.run()) }
/// ```
public enum PDFPageChild {
    /// Handles one request; the exit status: 0 when a reply (pixels or a failure) was written, 2 when the
    /// request was not one.
    public static func run() -> Int32 {
        guard let header = FileDescriptorIO.read(STDIN_FILENO, count: PDFPageWire.requestHeaderSize),
              let request = PDFPageWire.Request(header: Array(header)) else {
            _ = FileDescriptorIO.write(STDOUT_FILENO, PDFPageWire.failure("not a PDF page request"))
            return 2
        }
        // Limits first: nothing the document says is read before they hold.
        ChildResourceLimits.apply(memoryBytes: request.memoryLimit, cpuSeconds: request.cpuSeconds)
        guard let document = FileDescriptorIO.read(STDIN_FILENO, count: request.documentLength) else {
            _ = FileDescriptorIO.write(STDOUT_FILENO, PDFPageWire.failure("the document was cut short"))
            return 2
        }
        do {
            let pixels = try render(document, request: request)
            guard FileDescriptorIO.write(STDOUT_FILENO, PDFPageWire.pixelsHeader(pixels.size)) else { return 1 }
            return pixels.withUnsafeBytes { FileDescriptorIO.write(STDOUT_FILENO, $0) } ? 0 : 1
        } catch {
            return FileDescriptorIO.write(STDOUT_FILENO, PDFPageWire.failure("\(error)")) ? 0 : 1
        }
    }

    /// The page at exactly the request's size (the service planned it), straight RGBA8.
    private static func render(_ document: Data, request: PDFPageWire.Request) throws -> PixelBuffer {
        var options = ImageDecodeOptions(thumbnailPixelSize: request.size, preserveAspectRatio: false,
                                         maxPixelCount: max(1, request.size.pixelCount))
        options.coderOptions[PDFPage.self] = request.page
        let pixels = try PDFCoder().decode(document, options: options).pixels.converted(to: .rgba8)
        guard pixels.size == request.size else {
            throw WebImageError.badImageData(.corrupt("the page was drawn at \(pixels.width)x\(pixels.height), "
                + "not the \(request.size.width)x\(request.size.height) asked for"))
        }
        return pixels
    }
}
