import Foundation
import Testing
import WebImageCore

/// A coder that claims every byte sequence starting with its marker, to test priority and registration.
private final class MarkerCoder: ImageCoding {
    let marker: UInt8
    let name: String
    init(marker: UInt8, name: String) { self.marker = marker; self.name = name }
    func canDecode(_ data: Data) -> Bool { data.first == marker }
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        Image(pixels: PixelBuffer(width: 1, height: 1), format: .undefined, hasAlpha: name == "alpha")
    }
    func canEncode(to format: ImageFormat) -> Bool { format == .bmp }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data { Data(name.utf8) }
}

@Suite struct CodersManagerTests {
    @Test func lastAddedCoderWins() throws {
        let first = MarkerCoder(marker: 0x42, name: "first"), second = MarkerCoder(marker: 0x42, name: "alpha")
        let manager = CodersManager(coders: [first])
        manager.addCoder(second)
        #expect(try manager.decode(Data([0x42]), options: .init()).hasAlpha)
        #expect(try manager.encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .bmp, options: .init()) == Data("alpha".utf8))
        manager.removeCoder(second)
        #expect(try !manager.decode(Data([0x42]), options: .init()).hasAlpha)
    }

    @Test func emptyAndUnknownBytesAreTypedErrors() {
        let manager = CodersManager()
        #expect(throws: WebImageError.self) { try manager.decode(Data(), options: .init()) }
        do {
            _ = try manager.decode(Data("hello".utf8), options: .init())
            Issue.record("expected an error")
        } catch let error as WebImageError {
            #expect(error.code == 1001)
            guard case .badImageData(.unsupportedFormat(.undefined)) = error else {
                Issue.record("unexpected \(error)")
                return
            }
        } catch {
            Issue.record("untyped \(error)")
        }
    }

    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF], ImageFormat.jpeg), ([0x89, 0x50, 0x4E, 0x47], .png), ([0x47, 0x49, 0x46], .gif),
        ([0x49, 0x49], .tiff), ([0x4D, 0x4D], .tiff), ([0x42, 0x4D], .bmp), (Array("%PDF-1.4".utf8), .pdf),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8), .heic), ([0, 0, 0, 0x18] + Array("ftyphevx".utf8), .heic),
        ([0, 0, 0, 0x18] + Array("ftypmif1".utf8), .heif), ([0, 0, 0, 0x18] + Array("ftypavif".utf8), .avif),
        (Array("<svg xmlns='http://www.w3.org/2000/svg'></svg>\n".utf8), .svg), (Array("hello".utf8), .undefined), ([], .undefined),
    ] as [([UInt8], ImageFormat)])
    func sniffsSDWebImageTable(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat(sniffing: Data(bytes)) == format)
    }
}
