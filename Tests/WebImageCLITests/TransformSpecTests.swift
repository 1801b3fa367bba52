import Testing
import WebImage
import WebImageCLISupport

/// `--transform` specs become the library's transformers, with SDWebImage's cache-key suffixes.
@Suite struct TransformSpecTests {
    @Test func everyStepMapsToItsTransformer() throws {
        let spec = "resize:200x100:cover;crop:0,0,100,50;round:20;flip:h;rotate:90;tint:#ff000080;blur:4"
        let pipeline = try TransformSpec.parse(spec)
        let expected: [any ImageTransforming] = [
            ImageTransformers.Resize(width: 200, height: 100, mode: .aspectFill),
            ImageTransformers.Crop(x: 0, y: 0, width: 100, height: 50),
            ImageTransformers.RoundCorner(radius: 20),
            ImageTransformers.Flip(horizontal: true, vertical: false),
            ImageTransformers.Rotate(angle: .pi / 2),
            ImageTransformers.Tint(color: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)),
            ImageTransformers.Blur(radius: 4),
        ]
        #expect(pipeline.transformerKey == ImageTransformers.Pipeline(expected).transformerKey)
    }

    @Test func oneStepIsThatTransformer() throws {
        #expect(try TransformSpec.parse("resize:30x20").transformerKey
                == ImageTransformers.Resize(width: 30, height: 20, mode: .fill).transformerKey)
    }

    @Test func badStepsNameTheStep() {
        let cases = ["", "resize:0x10", "resize:10x10:squash", "crop:1,2,3", "round:-1", "flip:x", "tint:red",
                     "blur:abc", "sharpen:2"]
        for spec in cases {
            #expect(throws: CLIFailure.self, "\(spec)") { try TransformSpec.parse(spec) }
        }
        do {
            _ = try TransformSpec.parse("round:4;flip:x")
            Issue.record("a bad flip axis was accepted")
        } catch {
            #expect(String(describing: error)
                    == "webimage: --transform: bad step 'flip:x': give flip:h, flip:v or flip:hv")
        }
    }
}
