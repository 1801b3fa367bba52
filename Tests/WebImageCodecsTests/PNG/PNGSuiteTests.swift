import Foundation
import TestSupport
import Testing
import WebImage

/// PngSuite conformance: every valid file decodes to the reference pixels, every `x*` file is rejected.
@Suite struct PNGSuiteTests {
    static let folder = TestCorpus.url("pngsuite")
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(
        atPath: folder.appendingPathComponent("png").path)) ?? []).filter { $0.hasSuffix(".png") }.sorted()

    @Test func corpusIsPresent() {
        #expect(Self.files.count == 175)
    }

    @Test(arguments: files)
    func decodesToReference(file: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("png/\(file)"))
        let name = String(file.dropLast(4))
        if name.hasPrefix("x") {
            #expect(throws: WebImageError.self) { try PNGCoder().decode(data, options: .init()) }
            return
        }
        // The references are the stored samples: no colour management (the cHRM files would be converted).
        let image = try PNGCoder().decode(data, options: .init(colorSpace: .preserve))
        #expect(image.format == .png && image.frameCount == 1 && !image.isIncremental)
        let reference = try Self.reference(name)
        if name.hasSuffix("16") {
            #expect(image.pixelFormat == .rgba16)
            let samples = image.pixels.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)).map(Int.init) }
            #expect(samples == reference, "16-bit samples differ from the stored ones")
            // The corpus publishes no 8-bit version of the four bas*4a16/6a16 files; the exact 16-bit check
            // above covers them.
            if Self.hasReference(name + "_to8") {
                let expected8 = try Self.reference(name + "_to8")
                let actual8 = image.pixels.converted(to: .rgba8).bytes
                #expect(actual8.count == expected8.count)
                let worst = zip(actual8, expected8).map { abs(Int($0) - $1) }.max() ?? 0
                #expect(worst <= 1, "8-bit conversion differs by \(worst)")
            } else {
                #expect(["basi4a16", "basi6a16", "basn4a16", "basn6a16"].contains(name))
            }
        } else {
            #expect(image.pixelFormat == .rgba8)
            #expect(image.pixels.bytes.map(Int.init) == reference)
        }
        // The basic files say their colour type in the name: 4 and 6 carry alpha, the others do not.
        if name.hasPrefix("bas") {
            #expect(image.hasAlpha == (name.contains("4a") || name.contains("6a")))
        }
        if name.hasPrefix("tbb") || name.hasPrefix("tm3") {
            #expect(image.hasAlpha)
        }
    }

    static func hasReference(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("json/\(name).json").path)
    }

    /// `json/<name>.json`: the straight RGBA samples.
    static func reference(_ name: String) throws -> [Int] {
        try JSONDecoder().decode([Int].self, from: Data(contentsOf: folder.appendingPathComponent("json/\(name).json")))
    }
}
