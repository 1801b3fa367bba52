import Foundation
import Synchronization
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// The JPEG coder, counting how often a header is read and an image decoded.
final class CountingJPEGCoder: ImageCoding, ImageHeaderReading {
    private let inner = JPEGCoder()
    let headerReads = Mutex(0)
    let decodes = Mutex(0)

    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }

    func header(_ data: Data) throws -> ImageHeader {
        headerReads.withLock { $0 += 1 }
        return try inner.header(data)
    }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        decodes.withLock { $0 += 1 }
        return try inner.decode(data, options: options)
    }

    func canEncode(to format: ImageFormat) -> Bool { inner.canEncode(to: format) }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try inner.encode(image, as: format, options: options)
    }
}

/// A cold request reads its source's header once (on download, handed to processing), and `/info` reads it and
/// decodes nothing.
@Suite struct ProxyHeaderOnceTests {
    @Test func aColdSourceHeaderIsReadOnce() async throws {
        let counting = CountingJPEGCoder()
        let configuration = ProxyHarness.configuration {
            $0.processing.coders = CodersManager(coders: CodersManager.shared.coders + [counting])
        }
        try await ProxyHarness.with(configuration) { harness in
            for index in 0..<3 { harness.serve("/\(index).jpg", try Fixtures.jpeg(40 + index, 30)) }
            for index in 0..<3 {
                let answer = try await harness.get(harness.signedPath("w:20", source: "/\(index).jpg"))
                #expect(answer.status == 200)
                #expect(counting.headerReads.withLock { $0 } == index + 1)
            }
            #expect(counting.decodes.withLock { $0 } == 3)
            // A result from memory reads nothing.
            #expect(try await harness.get(harness.signedPath("w:20", source: "/0.jpg")).status == 200)
            #expect(counting.headerReads.withLock { $0 } == 3)

            let jpeg = try Fixtures.jpeg(64, 48)
            harness.serve("/info.jpg", jpeg)
            let info = try await harness.get("/info" + harness.signedPath("", source: "/info.jpg"))
            #expect(info.text == #"{"format":"jpeg","height":48,"mime_type":"image/jpeg","orientation":1,"size":\#(jpeg.count),"width":64}"#)
            #expect(counting.headerReads.withLock { $0 } == 4)
            #expect(counting.decodes.withLock { $0 } == 3)
        }
    }
}
