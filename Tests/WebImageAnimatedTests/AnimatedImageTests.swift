import Foundation
import Testing
import TestSupport
import WebImage

@Suite struct AnimatedImageTests {
    static let gifSamples = TestCorpus.url("gif/samples")
    static let fixtures = TestCorpus.packageRoot.appendingPathComponent("Tests/WebImageCodecsTests/Fixtures")

    static func load(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    @Test(arguments: [
        ("gif", gifSamples.appendingPathComponent("moon_impact.gif")),
        ("png", fixtures.appendingPathComponent("png/pillow-animated.png")),
        ("webp", fixtures.appendingPathComponent("webp/alpha_anim_img2webp.webp")),
    ])
    func framesDecodeOnDemandAndMatchAFullDecode(format: String, url: URL) throws {
        let data = try Self.load(url)
        let animation = try AnimatedImage(data: data)
        let full = try CodersManager.shared.decode(data, options: ImageDecodeOptions())
        #expect(animation.format.rawValue == format)
        #expect(animation.data == data)
        #expect(animation.isAnimated && animation.frameCount == full.frameCount)
        #expect(animation.loopCount == full.loopCount)
        #expect(animation.pixelSize == full.pixelSize)
        #expect(!animation.isAllFramesLoaded)
        for index in [0, animation.frameCount - 1, 1] {
            #expect(try animation.frame(at: index) == full.frames[index].pixels.converted(to: .rgba8))
            #expect(animation.frameDuration(at: index) == full.frames[index].duration)
        }
        try animation.preloadAllFrames()
        #expect(animation.isAllFramesLoaded)
        #expect(try animation.makeImage().frames.map(\.pixels) == full.frames.map { $0.pixels.converted(to: .rgba8) })
        animation.unloadAllFrames()
        #expect(!animation.isAllFramesLoaded)
        #expect(throws: WebImageError.self) { try animation.frame(at: animation.frameCount) }
    }

    @Test func aStillImageIsOneFrameAndNotAnimated() throws {
        let data = try Self.load(Self.fixtures.appendingPathComponent("jpeg/gray-64x48.jpg"))
        let still = try AnimatedImage(data: data)
        #expect(still.format == .jpeg && still.frameCount == 1 && !still.isAnimated)
        #expect(still.pixelSize == PixelSize(width: 64, height: 48))
        #expect(AnimatedImagePlayer(provider: still) == nil)
    }

    @Test func svgGarbageAndEmptyDataFail() {
        let svg = Data("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'></svg>".utf8)
        for bytes in [svg, Data("not an image".utf8), Data()] {
            #expect(throws: WebImageError.self) { try AnimatedImage(data: bytes) }
        }
    }

    @Test func scaleComesFromTheFileNameOrTheCaller() throws {
        let source = Self.gifSamples.appendingPathComponent("beacon.gif")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("animated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let retina = directory.appendingPathComponent("beacon@2x.gif")
        try FileManager.default.copyItem(at: source, to: retina)
        let animation = try AnimatedImage(contentsOf: retina)
        #expect(animation.scale == 2)
        #expect(animation.size.width == Double(animation.pixelSize.width) / 2)
        #expect(try AnimatedImage(contentsOf: retina, scale: 3).scale == 3)
        #expect(try AnimatedImage(contentsOf: source).scale == 1)
        #expect(throws: WebImageError.self) { try AnimatedImage(contentsOf: directory.appendingPathComponent("missing.gif")) }
    }

    @Test func codableRoundTripKeepsEverything() throws {
        let data = try Self.load(Self.gifSamples.appendingPathComponent("moon_impact.gif"))
        let animation = try AnimatedImage(data: data, scale: 2)
        let decoded = try JSONDecoder().decode(AnimatedImage.self, from: JSONEncoder().encode(animation))
        #expect(decoded.scale == 2 && decoded.data == data && decoded.format == animation.format)
        #expect(decoded.pixelSize == animation.pixelSize && decoded.size == animation.size)
        #expect(decoded.loopCount == animation.loopCount && decoded.frameCount == animation.frameCount)
    }

    @Test func aRealAnimationPlaysEveryFrameInOrder() throws {
        let animation = try AnimatedImage(data: Self.load(Self.gifSamples.appendingPathComponent("moon_impact.gif")))
        let clock = ManualAnimationClock()
        let player = try #require(AnimatedImagePlayer(provider: animation, clock: clock))
        player.maxBufferSize = animation.bytesPerFrame * 2
        let shown = LockedIndices()
        player.onFrame = { index, pixels in
            shown.append(index)
            #expect(pixels == (try? animation.frame(at: index)))
        }
        player.startPlaying()
        for index in 0..<animation.frameCount { clock.advance(by: animation.frameDuration(at: index)) }
        #expect(shown.values == Array(0..<animation.frameCount) + [0])
    }
}
