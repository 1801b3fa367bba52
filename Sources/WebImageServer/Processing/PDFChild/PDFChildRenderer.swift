#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WebImage

/// Draws PDF pages in child processes (``ImageProxyConfiguration/PDFRendering``): one per page, killed when
/// the job is cancelled or `timeLimit` passes, its memory and CPU time bounded by the kernel, its failures
/// typed errors of the request.
struct PDFChildRenderer: Sendable {
    let rendering: ImageProxyConfiguration.PDFRendering
    /// The most a page may take even with no cancellation in scope: the processing timeout.
    let timeLimit: Duration

    /// The page (0-based) of `document` drawn at exactly `size`, straight RGBA8 on a transparent background.
    func render(_ document: Data, page: Int = 0, size: PixelSize) throws(ProxyError) -> PixelBuffer {
        let rasterBytes = size.pixelCount * 4
        // The page's raster and one more for cairo's work surfaces (a transparency group draws on its own).
        let request = PDFPageWire.Request(page: page, size: size,
                                          memoryLimit: rendering.memoryAllowance + document.count + 2 * rasterBytes,
                                          cpuSeconds: rendering.cpuSeconds, documentLength: document.count)
        let deadline = ContinuousClock.now + timeLimit
        let child = try PDFChildProcess(rendering)
        defer { child.stop() }
        do {
            return try PixelBuffer(width: size.width, height: size.height) { pixels in
                try child.exchange(request, document: document, into: pixels, deadline: deadline,
                                   cancellation: WorkCancellation.current)
            }
        } catch let error as ProxyError {
            throw error
        } catch {
            throw .unprocessable("the PDF page cannot be drawn: \(error)")
        }
    }
}
