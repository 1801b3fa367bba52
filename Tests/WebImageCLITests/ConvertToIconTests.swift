import Foundation
import Testing
import WebImage

/// `webimage convert` and `decode` to ICO with an image larger than an icon holds: scaled down to 256 pixels on the
/// long side with `Image.fitted(to:)`, the service's rule (imgproxy's `fix_size`), and said on standard error.
@Suite struct ConvertToIconTests {
    /// A PNG of `size` with a pattern in every channel, written in `dir`; its decoded image too.
    private static func source(_ size: PixelSize, in dir: TemporaryDirectory) throws -> (path: String, image: Image) {
        let pixels = PixelBuffer(width: size.width, height: size.height, format: .rgba8) { out in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let i = (y * size.width + x) * 4
                    out[i] = UInt8(x * 255 / size.width)
                    out[i + 1] = UInt8(y * 255 / size.height)
                    out[i + 2] = UInt8((x ^ y) & 0xFF)
                    out[i + 3] = UInt8(128 + (x + y) % 128)
                }
            }
        }
        let path = dir.path("in-\(size).png")
        try CodersManager.shared.encode(Image(pixels: pixels), as: .png, options: ImageEncodeOptions())
            .write(to: URL(fileURLWithPath: path))
        return (path, try CodersManager.shared.decode(Data(contentsOf: URL(fileURLWithPath: path)), options: ImageDecodeOptions()))
    }

    @Test(arguments: [
        (PixelSize(width: 300, height: 300), PixelSize(width: 256, height: 256)),
        (PixelSize(width: 1000, height: 301), PixelSize(width: 256, height: 77)),   // 77.056 rounded
        (PixelSize(width: 301, height: 1000), PixelSize(width: 77, height: 256)),
    ])
    func convertScalesToTheIconSideAndSaysSo(from size: PixelSize, to expected: PixelSize) async throws {
        let dir = try TemporaryDirectory()
        let (input, source) = try Self.source(size, in: dir)
        let output = dir.path("out.ico")
        let result = try await CLIRunner.run(["convert", input, output])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr == "webimage: \(output): scaled \(size) to \(expected): ico holds at most 256 pixels a side\n")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(result.stdout == "\(output): ico, \(expected), 1 frame, \(data.count) bytes\n")
        // One entry whose directory states the size (256 written as 0), a PNG of the service's pixels.
        #expect(Array(data.prefix(8)) == [0, 0, 1, 0, 1, 0, UInt8(expected.width % 256), UInt8(expected.height % 256)])
        let icon = try ICOCoder().decode(data, options: ImageDecodeOptions())
        #expect(icon.format == .ico && icon.pixelSize == expected)
        #expect(icon.pixels == source.fitted(to: .ico).pixels)
    }

    @Test func anImageThatFitsIsWrittenAsItIsWithoutANote() async throws {
        let dir = try TemporaryDirectory()
        let (input, source) = try Self.source(PixelSize(width: 256, height: 100), in: dir)
        let output = dir.path("out.ico")
        let result = try await CLIRunner.run(["convert", input, output])
        #expect(result.status == 0 && result.stderr.isEmpty, "stderr: \(result.stderr)")
        let icon = try ICOCoder().decode(Data(contentsOf: URL(fileURLWithPath: output)), options: ImageDecodeOptions())
        #expect(icon.pixels == source.pixels)
    }

    @Test func decodeToAnIconScalesTheSameWay() async throws {
        let dir = try TemporaryDirectory()
        let (input, source) = try Self.source(PixelSize(width: 640, height: 480), in: dir)
        let output = dir.path("frame.ico")
        let result = try await CLIRunner.run(["decode", input, "-o", output])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr == "webimage: \(output): scaled 640x480 to 256x192: ico holds at most 256 pixels a side\n")
        #expect(result.stdout.hasPrefix("\(output): 256x192 frame 0 of 1, "))
        let icon = try ICOCoder().decode(Data(contentsOf: URL(fileURLWithPath: output)), options: ImageDecodeOptions())
        #expect(icon.pixelSize == PixelSize(width: 256, height: 192))
        #expect(icon.pixels == source.fitted(to: .ico).pixels)
    }
}
