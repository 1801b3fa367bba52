import Foundation
import Testing
import WebImage

/// Animations made by libwebp's own tools, checked frame by frame against Pillow's decoding of the same files
/// (Pillow composites with libwebp's `WebPAnimDecoder` too; MD5s of the straight RGBA canvases).
///
/// - `moon_impact_gif2webp_mixed.webp`: `gif2webp -mixed -q 60` of the GIF corpus' `moon_impact.gif`
///   (116×100, lossy and lossless sub-frames, blending, GIF loop 10 → WebP loop 11).
/// - `alpha_anim_img2webp.webp`: `img2webp -loop 2 -lossless -d 5 a.png -d 80 b.png -lossy -q 70 -d 10 c.png`
///   (48×32, an alpha ramp, an unblended frame, a lossy frame with a transparent hole).
@Suite struct WebPAnimationFixtureTests {
    private let coder = WebPCoder()

    private func fixture(_ name: String) throws -> Data {
        try TestPaths.data(TestPaths.fixture("webp", name))
    }

    @Test func gif2webpMixedAnimationMatchesPillow() throws {
        let image = try coder.decode(try fixture("moon_impact_gif2webp_mixed.webp"), options: .init())
        #expect(image.pixelSize == PixelSize(width: 116, height: 100))
        #expect(image.loopCount == 11)
        #expect(image.frameDurations == [0.45] + Array(repeating: 0.15, count: 8) + [0.45])
        #expect(image.frames.map { MD5.hex(Data($0.pixels.bytes)) } == [
            "ef42e97f59614ca50a2c648dac29de37", "9a568e022cddd4df7280d40c78f1ad19", "131dca1db15eca3b9a47d3a77446c597",
            "3679ba50294eaa2774c267885ec47407", "75fce4f0994cd34ec7bfcf725a897a7a", "dba7893e854b86b1896c54d816705ebb",
            "7f183237801dcfa3f0a8cf54d906ec91", "84e46b3f625ed67f7c4cfa3f24de06d6", "965507bc80664e3f5de42f69cb35015c",
            "90dc4c9399164aaec3b18a8a027f0593",
        ])
    }

    @Test func img2webpAlphaAnimationMatchesPillow() throws {
        let image = try coder.decode(try fixture("alpha_anim_img2webp.webp"), options: .init())
        #expect(image.pixelSize == PixelSize(width: 48, height: 32))
        #expect(image.loopCount == 2)
        #expect(image.hasAlpha)
        // 5 ms and 10 ms are shown for 100 ms (SDWebImage's and browsers' rule); 80 ms stays.
        #expect(image.frameDurations == [0.1, 0.08, 0.1])
        #expect(image.frames.map { MD5.hex(Data($0.pixels.bytes)) } == [
            "e4266e49e36fc150c37a226db745f838", "250f4712d3b8c129f888eab89d48fdda", "9f97ffc9fa7859f6f1f93d6544ca4659",
        ])
    }

    @Test func lazyDecoderReplaysTheRealAnimation() throws {
        let data = try fixture("moon_impact_gif2webp_mixed.webp")
        let full = try coder.decode(data, options: .init())
        let lazy = try coder.makeAnimatedDecoder(data, options: .init())
        #expect(lazy.frameCount == 10)
        for index in [9, 3, 4, 0, 8] {
            #expect(try lazy.frame(at: index) == full.frames[index].pixels)
        }
    }
}
