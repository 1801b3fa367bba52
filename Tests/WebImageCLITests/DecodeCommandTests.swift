import Foundation
import Testing
import WebImage

/// `webimage decode`: PAM output byte-identical to the library's decode, thumbnails, frames, PNG output.
@Suite struct DecodeCommandTests {
    private func libraryDecode(_ path: String, _ options: ImageDecodeOptions = ImageDecodeOptions()) throws -> Image {
        try CodersManager.shared.decode(Data(contentsOf: URL(fileURLWithPath: path)), options: options)
    }

    @Test func pamMatchesLibraryDecode() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["decode", CLITestPaths.testWebP, "-o", dir.path("x.pam")])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let written = try Data(contentsOf: dir.url.appendingPathComponent("x.pam"))
        #expect(written == (try libraryDecode(CLITestPaths.testWebP)).pixels.pamData())
        // dwebp -pam test.webp: 69-byte header + 128×128×4 (md5 3d9213ea387706db93f0b39247d77573).
        #expect(written.count == 69 + 128 * 128 * 4)
    }

    @Test func thumbnailKeepsAspectRatio() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["decode", CLITestPaths.interlacedGIF, "-o", dir.path("t.pam"),
                                        "--thumbnail", "400x300"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let written = try Data(contentsOf: dir.url.appendingPathComponent("t.pam"))
        // 540×330 into 400×300: width limits, height rounded up (SDWebImage) → 400×245.
        #expect(PAMHeader(written) == PAMHeader(width: 400, height: 245))
        let expected = try libraryDecode(CLITestPaths.interlacedGIF,
                                         ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 400, height: 300)))
        #expect(written == expected.pixels.pamData())
    }

    @Test func stretchFillsTheExactSize() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["decode", CLITestPaths.interlacedGIF, "-o", dir.path("s.pam"),
                                        "--thumbnail", "400x300", "--stretch"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(PAMHeader(try Data(contentsOf: dir.url.appendingPathComponent("s.pam"))) == PAMHeader(width: 400, height: 300))
    }

    @Test func frameSelectsOneCompositedFrame() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["decode", CLITestPaths.moonGIF, "-o", dir.path("f.pam"), "--frame", "3"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let written = try Data(contentsOf: dir.url.appendingPathComponent("f.pam"))
        let image = try libraryDecode(CLITestPaths.moonGIF)
        #expect(written == image.frames[3].pixels.pamData())
        #expect(written != image.frames[0].pixels.pamData())
    }

    @Test func scaleDownLimitShrinks() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["decode", CLITestPaths.testWebP, "-o", dir.path("l.pam"),
                                        "--scale-down-limit", "16384"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        // 16,384 bytes of RGBA = 4,096 pixels → 64×64 for a square image.
        #expect(PAMHeader(try Data(contentsOf: dir.url.appendingPathComponent("l.pam"))) == PAMHeader(width: 64, height: 64))
    }

    /// A 40×20 JPEG tagged EXIF orientation 6: reported by `info`, applied (20×40) only with `--apply-orientation`.
    @Test func applyOrientationTurnsThePixels() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("rotated.jpg")
        let plain = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 40, height: 20), hasAlpha: false),
                                                    as: .jpeg, options: ImageEncodeOptions(quality: 0.9))
        try (Data(plain.prefix(2)) + Self.exifOrientationSegment(6) + plain.dropFirst(2)).write(to: URL(fileURLWithPath: path))

        let info = try await CLIRunner.run(["info", path, "--json"])
        #expect(info.stdout.contains("\"orientation\":6"), "\(info.stdout) \(info.stderr)")
        #expect(try await CLIRunner.run(["decode", path, "-o", dir.path("as-stored.pam")]).status == 0)
        #expect(try await CLIRunner.run(["decode", path, "-o", dir.path("upright.pam"), "--apply-orientation"]).status == 0)
        #expect(PAMHeader(try Data(contentsOf: dir.url.appendingPathComponent("as-stored.pam"))) == PAMHeader(width: 40, height: 20))
        #expect(PAMHeader(try Data(contentsOf: dir.url.appendingPathComponent("upright.pam"))) == PAMHeader(width: 20, height: 40))
    }

    /// An APP1 Exif segment holding only the orientation tag (little-endian TIFF, one IFD entry).
    static func exifOrientationSegment(_ orientation: UInt8) -> Data {
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,  // "II", 42, IFD at 8
                             0x01, 0x00,  // one entry
                             0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, orientation, 0x00, 0x00, 0x00,  // 0x0112 SHORT
                             0x00, 0x00, 0x00, 0x00]  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
    }

    @Test func pngOutputDecodesToTheSamePixels() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["decode", CLITestPaths.rgbaPNG, "-o", dir.path("p.png")])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let written = try libraryDecode(dir.path("p.png"))
        #expect(written.format == .png)
        #expect(written.pixels.converted(to: .rgba8) == (try libraryDecode(CLITestPaths.rgbaPNG)).pixels.converted(to: .rgba8))
    }
}

/// The size fields of a PAM header.
struct PAMHeader: Equatable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTH`/`HEIGHT` from a `P7` header; nil fields become 0.
    init(_ data: Data) {
        let text = String(decoding: data.prefix(80), as: UTF8.self)
        func field(_ name: String) -> Int {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.dropFirst(name.count + 1)) } ?? 0
        }
        self.init(width: field("WIDTH"), height: field("HEIGHT"))
    }
}
