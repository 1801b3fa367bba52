import Foundation
import Testing
import WebImage

/// ICO: sniffing next to ISO-BMFF, entry choice, PNG and DIB entries with their transparency, encoding and damage.
@Suite struct ICOTests {
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]

    static func threeSizes() throws -> Data {
        ICOTestFiles.icon([try ICOTestFiles.png(ICOTestFiles.solid(width: 16, height: 16, red)),
                           ICOTestFiles.dib(ICOTestFiles.solid(width: 48, height: 48, blue)),
                           try ICOTestFiles.png(ICOTestFiles.solid(width: 32, height: 32, green))])
    }

    @Test func sniffingKeepsISOBMFFAndJPEGXL() throws {
        #expect(ImageFormat(sniffing: try Self.threeSizes()) == .ico)
        #expect(ImageFormat(sniffing: Data([0, 0, 1, 0] + Array("ftypavif".utf8))) == .avif)
        #expect(ImageFormat(sniffing: Data([0, 0, 1, 0] + Array("ftypheic".utf8))) == .heic)
        #expect(ImageFormat(sniffing: Data([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])) == .jxl)
        #expect(ImageFormat(sniffing: Data([0, 0, 1, 0, 0, 0])) == .undefined)
        #expect(ImageFormat(sniffing: Data([0, 0, 2, 0, 1, 0])) == .undefined)
        #expect(ImageFormat.ico.mimeType == "image/x-icon" && ImageFormat.ico.fileExtension == "ico")
        #expect(ImageFormat(fileExtension: "ICO") == .ico)
        #expect(ImageFormat.allCases.firstIndex(of: .undefined) == 12 && ImageFormat.allCases[13] == .ico)
        #expect(ImageFormat.allCases.suffix(5) == [.mp4, .mov, .webm, .mkv, .avi])
    }

    @Test func theLargestEntryByDefaultTheSmallestLargeEnoughForAThumbnail() throws {
        let data = try Self.threeSizes()
        let full = try CodersManager.shared.decode(data, options: .init())
        #expect(full.format == .ico && full.pixelSize == PixelSize(width: 48, height: 48))
        #expect(full.pixels.rgba8(x: 5, y: 5) == Self.blue && !full.pixels.containsTransparency)
        let thumbnail = try ICOCoder().decode(data, options: .init(thumbnailPixelSize: PixelSize(width: 20, height: 20)))
        #expect(thumbnail.pixelSize == PixelSize(width: 20, height: 20) && thumbnail.pixels.rgba8(x: 3, y: 3) == Self.green)
        let exact = try ICOCoder().decode(data, options: .init(thumbnailPixelSize: PixelSize(width: 16, height: 16)))
        #expect(exact.pixels.rgba8(x: 0, y: 0) == Self.red)
        let header = try ICOCoder().header(data)
        #expect(header.format == .ico && header.pixelSize == PixelSize(width: 48, height: 48) && header.frameCount == 1)
    }

    @Test func dibEntriesTakeTheirTransparencyFromAlphaOrTheMask() throws {
        let pixels = PixelBuffer(width: 9, height: 5, bytes: (0..<45).flatMap { [UInt8($0), 100, 200, UInt8($0 * 5)] })
        let withAlpha = try ICOCoder().decode(ICOTestFiles.icon([ICOTestFiles.dib(pixels)]), options: .init())
        #expect(withAlpha.pixels == pixels && withAlpha.hasAlpha)

        let opaque = ICOTestFiles.solid(width: 9, height: 5, Self.green)
        let diagonal: (Int, Int) -> Bool = { x, y in x == y }
        let masked = try ICOCoder().decode(ICOTestFiles.icon([ICOTestFiles.dib(opaque, masked: diagonal)]), options: .init())
        for y in 0..<5 {
            for x in 0..<9 { #expect(masked.pixels.rgba8(x: x, y: y) == (x == y ? [0, 0, 0, 0] : Self.green)) }
        }
        // 32-bit pixels whose alpha is all 0: the mask decides, as in icons written before alpha existed.
        let zero = try ICOCoder().decode(ICOTestFiles.icon([ICOTestFiles.dib(opaque, masked: diagonal, zeroAlpha: true)]),
                                         options: .init())
        #expect(zero.pixels == masked.pixels)
    }

    @Test(arguments: [1, 17, 256])
    func encodesOnePNGEntry(side: Int) throws {
        let pixels = PixelBuffer(width: side, height: max(1, side / 2), bytes: (0..<side * max(1, side / 2) * 4).map { UInt8($0 % 251) })
        let data = try CodersManager.shared.encode(Image(pixels: pixels), as: .ico, options: .init())
        #expect(ImageFormat(sniffing: data) == .ico && data[4] == 1 && data[22] == 0x89)
        #expect(data[6] == UInt8(side % 256))
        #expect(try ICOCoder().decode(data, options: .init()).pixels == pixels)
    }

    @Test func largerThan256IsRefusedNamingTheLimit() {
        let image = Image(pixels: PixelBuffer(width: 257, height: 10))
        do {
            _ = try ICOCoder().encode(image, as: .ico, options: .init())
            Issue.record("a 257-pixel-wide icon was encoded")
        } catch let error as WebImageError {
            #expect(error.description == "cannot encode ico: an icon holds at most 256x256 pixels; this image is 257x10")
            #expect(error.code == 1100)
        } catch {
            Issue.record("untyped \(error)")
        }
        // maxPixelSize shrinks it first, as the service does.
        #expect(throws: Never.self) {
            try ICOCoder().encode(image, as: .ico, options: .init(maxPixelSize: PixelSize(width: 256, height: 256)))
        }
    }

    @Test func truncatedAndCorruptIconsAreTypedErrors() throws {
        let data = try Self.threeSizes()
        for length in [1, 5, 6, 20, 54, data.count / 2, data.count - 1] {
            #expect(throws: WebImageError.self, "cut at \(length)") { _ = try ICOCoder().decode(data.prefix(length), options: .init()) }
        }
        var bytes = [UInt8](data)
        bytes[6 + 16 + 12] = 0xFF; bytes[6 + 16 + 15] = 0x7F  // the 48x48 entry's offset past the end
        #expect(throws: WebImageError.self) { _ = try ICOCoder().decode(Data(bytes), options: .init()) }
        #expect(throws: WebImageError.self) { _ = try ICOCoder().header(Data(bytes)) }
        var garbage = [UInt8](data)
        let largest = 6 + 16  // the 48x48 DIB's directory entry
        let dibStart = Int(data[largest + 12]) | Int(data[largest + 13]) << 8
        garbage[dibStart] = 66  // an unknown info header size
        #expect(throws: WebImageError.self) { _ = try ICOCoder().decode(Data(garbage), options: .init()) }
    }
}
