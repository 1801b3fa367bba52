import Foundation
import Testing
import WebImage

/// ``ImageEncodeEffort/fastest``: what each format gives up is file size, never pixels beyond what the
/// quality already allows; size, alpha and animation survive.
@Suite struct FastestEncodeTests {
    private let coders = CodersManager.shared
    private let fastest = ImageEncodeOptions(effort: .fastest)

    @Test(arguments: [false, true])
    func pngRoundTripsPixelExactly(alpha: Bool) throws {
        let image = alpha ? EffortTestImages.translucent : EffortTestImages.opaque
        let data = try coders.encode(image, as: .png, options: fastest)
        let decoded = try coders.decode(data, options: .init())
        #expect(decoded.format == .png)
        #expect(decoded.hasAlpha == alpha)
        #expect(decoded.pixels == image.pixels)
        let chunks = PNGTestBytes.chunks([UInt8](data))
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        // Colour type 6 (RGBA) or 2 (RGB), 8-bit.
        #expect(chunks[0].data[8...9] == [8, alpha ? 6 : 2])
    }

    @Test func pngDeflatesAtTheFastestLevelWhereBalancedUsesTheDefault() throws {
        let fast = try coders.encode(EffortTestImages.opaque, as: .png, options: fastest)
        let balanced = try coders.encode(EffortTestImages.opaque, as: .png, options: ImageEncodeOptions())
        // The zlib header's FLEVEL (top two bits of its second byte): 0 fastest, 2 default (zlib level 6).
        #expect(EffortTestImages.zlibLevel(ofPNG: fast) == 0)
        #expect(EffortTestImages.zlibLevel(ofPNG: balanced) == 2)
        // Every row Sub-filtered.
        #expect(fast.count > balanced.count)
    }

    @Test func apngKeepsEveryFrameExactly() throws {
        let animation = EffortTestImages.animation
        let data = try coders.encode(animation, as: .png, options: fastest)
        let decoded = try coders.decode(data, options: .init())
        #expect(decoded.frameCount == 3 && decoded.loopCount == 2)
        #expect(decoded.frames.map(\.pixels) == animation.frames.map(\.pixels))
        #expect(decoded.frameDurations == animation.frameDurations)
        #expect(EffortTestImages.zlibLevel(ofPNG: data) == 0)
    }

    @Test func losslessWebPRoundTripsPixelExactlyWithHiddenColours() throws {
        var pixels = EffortTestImages.translucent.pixels
        // Fully transparent pixels with colour: lossless keeps their RGB too.
        pixels.withUnsafeMutableBytes { raw in
            for i in stride(from: 0, to: 40 * 4, by: 4) {
                (raw[i], raw[i + 1], raw[i + 2], raw[i + 3]) = (200, 10, 99, 0)
            }
        }
        let image = Image(pixels: pixels, hasAlpha: true)
        let options = ImageEncodeOptions(lossless: true, effort: .fastest)
        let data = try coders.encode(image, as: .webp, options: options)
        let decoded = try coders.decode(data, options: .init())
        #expect(decoded.hasAlpha)
        #expect(decoded.pixels == pixels)
        let balanced = try coders.encode(image, as: .webp, options: ImageEncodeOptions(lossless: true))
        #expect(data != balanced)
    }

    @Test func lossyWebPStaysFaithfulAndKeepsAlpha() throws {
        let image = EffortTestImages.translucent
        let options = ImageEncodeOptions(quality: 0.9, effort: .fastest)
        let data = try coders.encode(image, as: .webp, options: options)
        let decoded = try coders.decode(data, options: .init())
        #expect(decoded.pixelSize == image.pixelSize && decoded.hasAlpha)
        #expect(WebPTestImages.psnr(decoded.pixels, image.pixels) >= 30)
        let alphaError = stride(from: 3, to: image.pixels.bytes.count, by: 4)
            .map { abs(Int(image.pixels.bytes[$0]) - Int(decoded.pixels.bytes[$0])) }.max() ?? 0
        #expect(alphaError <= 2)
        #expect(data != (try coders.encode(image, as: .webp, options: ImageEncodeOptions(quality: 0.9))))
    }

    @Test func animatedWebPKeepsFramesAndTiming() throws {
        let animation = EffortTestImages.animation
        let data = try coders.encode(animation, as: .webp, options: ImageEncodeOptions(quality: 0.9, effort: .fastest))
        let decoded = try coders.decode(data, options: .init())
        #expect(decoded.frameCount == 3 && decoded.loopCount == 2)
        #expect(decoded.frameDurations == animation.frameDurations)
        for (got, want) in zip(decoded.frames, animation.frames) {
            #expect(WebPTestImages.psnr(got.pixels, want.pixels) >= 28)
        }
    }

    @Test func gifOfAPhotoLosesAtMostOneDecibel() throws {
        let image = EffortTestImages.opaque
        let fast = try coders.decode(try coders.encode(image, as: .gif, options: fastest), options: .init())
        let balanced = try coders.decode(try coders.encode(image, as: .gif, options: ImageEncodeOptions()),
                                         options: .init())
        #expect(fast.pixelSize == image.pixelSize && !fast.hasAlpha)
        let fastPSNR = WebPTestImages.psnr(fast.pixels, image.pixels)
        #expect(fastPSNR >= 30)
        #expect(fastPSNR >= WebPTestImages.psnr(balanced.pixels, image.pixels) - 1)
    }

    @Test func gifOfFewColoursStaysExactAndKeepsTransparency() throws {
        // 4 colours, one of them transparent: the exact palette, whatever the effort.
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [0, 0, 0, 0]]
        let bytes = (0..<30 * 20).flatMap { colours[($0 / 7) % 4] }
        let image = Image(pixels: PixelBuffer(width: 30, height: 20, bytes: bytes), hasAlpha: true)
        let decoded = try coders.decode(try coders.encode(image, as: .gif, options: fastest), options: .init())
        #expect(decoded.hasAlpha)
        #expect(decoded.pixels == image.pixels)
    }

    @Test func animatedGIFKeepsFramesTimingAndLoop() throws {
        let animation = EffortTestImages.animation
        let decoded = try coders.decode(try coders.encode(animation, as: .gif, options: fastest), options: .init())
        #expect(decoded.frameCount == 3 && decoded.loopCount == 2)
        #expect(decoded.frameDurations == animation.frameDurations)
        #expect(decoded.pixelSize == animation.pixelSize && decoded.hasAlpha)
    }

    @Test func animatedGIFSharesOnePaletteSoStillPixelsStayPut() throws {
        // One photo with a white box moving along: only the box changes from frame to frame.
        let base = WebPTestImages.photo(width: 96, height: 64)
        let frames = (0..<3).map { step in
            var pixels = base
            pixels.withUnsafeMutableBytes { raw in
                for y in 20..<36 {
                    for x in (10 + step * 20)..<(26 + step * 20) { for c in 0..<4 { raw[(y * 96 + x) * 4 + c] = 255 } }
                }
            }
            return ImageFrame(pixels: pixels, duration: 0.1)
        }
        let animation = Image(frames: frames)
        let fast = try coders.encode(animation, as: .gif, options: fastest)
        let decoded = try coders.decode(fast, options: .init())
        // Outside the boxes (x ≥ 66), every frame shows the same quantised colours.
        let columns = { (frame: ImageFrame) in
            (0..<64).flatMap { y in (66..<96).flatMap { x in frame.pixels.rgba8(x: x, y: y) } }
        }
        #expect(columns(decoded.frames[1]) == columns(decoded.frames[0]))
        #expect(columns(decoded.frames[2]) == columns(decoded.frames[0]))
        #expect(WebPTestImages.psnr(decoded.frames[2].pixels, frames[2].pixels) >= 28)
        // Later frames hold only the moved box, where per-frame palettes change every pixel.
        #expect(fast.count * 2 < (try coders.encode(animation, as: .gif, options: ImageEncodeOptions())).count)
    }

    @Test func jpegIsTheSameAtEveryEffort() throws {
        let image = EffortTestImages.opaque
        let fast = try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.9, effort: .fastest))
        #expect(fast == (try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.9))))
    }

    @Test func unsetEffortReadsAsBalancedAndAnExplicitChoiceIsKept() {
        let unset = ImageEncodeOptions(quality: 0.5)
        #expect(unset.effort == nil && unset.resolvedEffort == .balanced)
        #expect(unset.withDefaultEffort(.fastest).effort == .fastest)
        #expect(unset.withDefaultEffort(.fastest).quality == 0.5)
        #expect(ImageEncodeOptions(effort: .balanced).withDefaultEffort(.fastest).effort == .balanced)
    }
}
