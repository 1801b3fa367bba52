import Testing
import WebImage

@Suite struct TransformerKeyTests {
    private let flip = ImageTransformers.Flip(horizontal: true, vertical: false)

    @Test(arguments: [
        ("image.png", "image-T.png"), ("image", "image-T"), (".image", ".image-T"), ("image.", "image.-T"),
        ("Test/image.png", "Test/image-T.png"),
        ("http://foo/image.png?foo=bar#mark", "http://foo/image-T.png?foo=bar#mark"),
        ("ftp://root:password@foo.com/image.png", "ftp://root:password@foo.com/image-T.png"),
        ("file:///tmp/a/image.png", "file:///tmp/a/image-T.png"),
        ("http://foo/image?size=2.5", "http://foo/image?size=2.5-T"),
    ])
    func transformedKeysFollowSDWebImage(key: String, expected: String) {
        let t = flip.transformerKey
        #expect(t == "SDImageFlippingTransformer(1,0)")
        #expect(ImageTransformers.transformedKey(key, transformerKey: t) == expected.replacingOccurrences(of: "-T", with: "-" + t))
    }

    @Test func thumbnailKey() {
        #expect(ImageTransformers.thumbnailedKey("http://foo/image.png", pixelSize: PixelSize(width: 100, height: 100),
                                                 preserveAspectRatio: true)
                == "http://foo/image-Thumbnail({100.000000,100.000000},1).png")
        #expect(ImageTransformers.thumbnailedKey("http://foo/image", pixelSize: PixelSize(width: 40, height: 30),
                                                 preserveAspectRatio: false)
                == "http://foo/image-Thumbnail({40.000000,30.000000},0)")
    }

    @Test func builtInKeysUseSDWebImageFormats() {
        #expect(ImageTransformers.Resize(width: 200, height: 100, mode: .aspectFill).transformerKey
                == "SDImageResizingTransformer({200.000000,100.000000},2)")
        #expect(ImageTransformers.Crop(x: 0, y: 0, width: 100, height: 50.5).transformerKey
                == "SDImageCroppingTransformer({0.000000,0.000000,100.000000,50.500000})")
        #expect(ImageTransformers.RoundCorner(radius: 20, corners: .allCorners, borderWidth: 2,
                                              borderColor: RGBAColor(hex: "#ff000080")).transformerKey
                == "SDImageRoundCornerTransformer(20.000000,18446744073709551615,2.000000,#80ff0000)")
        #expect(ImageTransformers.RoundCorner(radius: 5, corners: [.topLeft, .bottomRight]).transformerKey
                == "SDImageRoundCornerTransformer(5.000000,9,0.000000,(null))")
        #expect(ImageTransformers.Rotate(angle: .pi / 4, fitSize: true).transformerKey
                == "SDImageRotationTransformer(0.785398,1)")
        #expect(ImageTransformers.Tint(color: RGBAColor(red: 0, green: 0x80, blue: 0xff)).transformerKey
                == "SDImageTintTransformer(#ff0080ff,18)")
        #expect(ImageTransformers.Blur(radius: 4).transformerKey == "SDImageBlurTransformer(4.000000)")
        let pipeline = ImageTransformers.Pipeline([flip, ImageTransformers.Blur(radius: 4)])
        #expect(pipeline.transformerKey == "SDImageFlippingTransformer(1,0)-SDImageBlurTransformer(4.000000)")
    }
}
