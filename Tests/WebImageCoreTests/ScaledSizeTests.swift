import Foundation
import Testing
import WebImageCore

/// SDWebImage's `scaledSizeWithImageSize:scaleSize:preserveAspectRatio:shouldScaleUp:`, case by case.
@Suite struct ScaledSizeTests {
    static func scaled(_ image: CGSize, _ target: CGSize, aspect: Bool, up: Bool) -> CGSize {
        ImageGeometry.scaledSize(imageSize: image, scaleSize: target, preserveAspectRatio: aspect, shouldScaleUp: up)
    }

    @Test func stretchedWithoutScaleUpClampsEachSide() {
        #expect(Self.scaled(CGSize(width: 100, height: 200), CGSize(width: 150, height: 150), aspect: false, up: false)
                == CGSize(width: 100, height: 150))
    }

    @Test func stretchedWithScaleUpIsTheTarget() {
        #expect(Self.scaled(CGSize(width: 100, height: 200), CGSize(width: 150, height: 150), aspect: false, up: true)
                == CGSize(width: 150, height: 150))
    }

    @Test func keepingTheRatioFitsInsideAndRoundsTheOtherSideUp() {
        #expect(Self.scaled(CGSize(width: 1000, height: 500), CGSize(width: 300, height: 300), aspect: true, up: false)
                == CGSize(width: 300, height: 150))
        #expect(Self.scaled(CGSize(width: 5250, height: 3450), CGSize(width: 400, height: 300), aspect: true, up: false)
                == CGSize(width: 400, height: 263))
        #expect(Self.scaled(CGSize(width: 300, height: 1000), CGSize(width: 300, height: 300), aspect: true, up: false)
                == CGSize(width: 90, height: 300))
    }

    @Test func keepingTheRatioScalesUpOnlyWhenAllowed() {
        #expect(Self.scaled(CGSize(width: 100, height: 50), CGSize(width: 400, height: 400), aspect: true, up: false)
                == CGSize(width: 100, height: 50))
        #expect(Self.scaled(CGSize(width: 100, height: 50), CGSize(width: 400, height: 400), aspect: true, up: true)
                == CGSize(width: 400, height: 200))
    }

    @Test(arguments: [CGSize(width: 0, height: 10), CGSize(width: 10, height: -1), CGSize(width: -5, height: -5)])
    func zeroOrNegativeSizesGiveTheImageSizeBack(bad: CGSize) {
        let image = CGSize(width: 640, height: 480)
        #expect(Self.scaled(image, bad, aspect: true, up: true) == image)
        #expect(Self.scaled(bad, image, aspect: false, up: false) == bad)
    }
}
