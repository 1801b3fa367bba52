import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// The service's value types on their own: geometry, admission, singleflight bookkeeping, header probing.
@Suite struct ProxyUnitTests {
    static func plan(_ segments: String, source: PixelSize = PixelSize(width: 400, height: 300),
                     maxSide: Int = 8192, maxPixels: Int = 16_777_216) throws -> ProcessingPlan {
        var options = ProcessingOptions()
        try OptionsParser().apply(segments.split(separator: "/"), to: &options)
        return ProcessingPlan(source: source, options: options,
                              limits: ProcessingPlan.Limits(maxSide: maxSide, maxPixels: maxPixels))
    }

    @Test func geometry() throws {
        #expect(try Self.plan("rs:fill:100:100/g:soea").box == .init(x: 33, y: 0, width: 100, height: 100))
        #expect(try Self.plan("rs:fill:100:100/g:nowe").box == .init(x: 0, y: 0, width: 100, height: 100))
        #expect(try Self.plan("rs:fill:100:100").scaled == PixelSize(width: 133, height: 100))
        #expect(try Self.plan("c:100:50:soea").region == .init(x: 300, y: 250, width: 100, height: 50))
        // Not enlarged, fill keeps what there is; fill-down keeps the box's aspect ratio instead.
        #expect(try Self.plan("rs:fill:800:800").result == PixelSize(width: 400, height: 300))
        #expect(try Self.plan("rs:fill-down:800:800").result == PixelSize(width: 300, height: 300))
        #expect(try Self.plan("rs:fit:200:0").scale == 0.5)
        #expect(try Self.plan("w:9000/el:1", maxSide: 1000).result == PixelSize(width: 1000, height: 750))
        #expect(try Self.plan("w:4000/el:1", maxPixels: 120_000).result == PixelSize(width: 400, height: 300))
        #expect(try Self.plan("rs:fill:100:100/g:fp:1:1").box == .init(x: 33, y: 0, width: 100, height: 100))
    }

    /// Sizes from imgproxy's formulas (`prepare.go`) where a plainer reading differs.
    @Test func imgproxysSizes() throws {
        // force keeps the source's side that is 0.
        #expect(try Self.plan("rs:force:100:0").result == PixelSize(width: 100, height: 300))
        #expect(try Self.plan("rs:force:0:150").result == PixelSize(width: 400, height: 150))
        // Not enlarging caps the dpr-scaled box: the box keeps its aspect ratio inside the source.
        #expect(try Self.plan("rs:fill:250:250/dpr:2").result == PixelSize(width: 300, height: 300))
        #expect(try Self.plan("rs:fit:150:150/dpr:2").result == PixelSize(width: 300, height: 225))
        #expect(try Self.plan("rs:fill:100:100/dpr:2").result == PixelSize(width: 200, height: 200))
        // A crop side in pixels is truncated, as Go's int() does.
        #expect(try Self.plan("c:100.7:50.9").region.width == 100)
        #expect(try Self.plan("c:100.7:50.9").region.height == 50)
        // auto is fill when source and box share an orientation, else fit.
        #expect(try Self.plan("rs:auto:100:50").result == PixelSize(width: 100, height: 50))
        #expect(try Self.plan("rs:auto:50:100").result == PixelSize(width: 50, height: 38))
        // A flip keeps the size; the box is cut from the flipped image.
        #expect(try Self.plan("rs:fill:100:100/fl:1").result == PixelSize(width: 100, height: 100))
        // min-width and min-height raise the scale, and the result is still cut to the requested size.
        #expect(try Self.plan("rs:fit:100:100/mw:200").scaled == PixelSize(width: 200, height: 150))
        #expect(try Self.plan("rs:fit:100:100/mw:200").result == PixelSize(width: 100, height: 100))
        #expect(try Self.plan("rs:fit:100:0/mh:150").result == PixelSize(width: 100, height: 150))
        #expect(try Self.plan("w:100/mw:50").result == PixelSize(width: 100, height: 75))
        // zoom multiplies the scale and the requested size.
        #expect(try Self.plan("rs:fit:100:100/z:2").result == PixelSize(width: 200, height: 150))
        #expect(try Self.plan("rs:fill:100:100/z:2:1").result == PixelSize(width: 200, height: 100))
    }

    /// Extending and padding: the canvas and where the resized image sits in it (imgproxy's `extend.go`,
    /// `padding.go`).
    @Test func canvases() throws {
        // fit 300×300 of 400×300: 300×225 extended to 300×300, centred (38 = 75 + 1 halved to even).
        #expect(try Self.plan("rs:fit:300:300:0:1").canvas == .init(x: 0, y: 38, width: 300, height: 300))
        #expect(try Self.plan("rs:fit:300:300:0:1:no").canvas == .init(x: 0, y: 0, width: 300, height: 300))
        #expect(try Self.plan("rs:fit:300:300:0:1:so:0:5").canvas == .init(x: 0, y: 70, width: 300, height: 300))
        // Not enlarged, an extend keeps the image's size and the canvas is the requested one.
        #expect(try Self.plan("rs:fit:800:800/ex:1:nowe").canvas == .init(x: 0, y: 0, width: 800, height: 800))
        // dpr cannot make the unenlarged image's box larger: the canvas stays 800×800.
        #expect(try Self.plan("rs:fit:800:800/ex:1:nowe/dpr:2").canvas == .init(x: 0, y: 0, width: 800, height: 800))
        // extend_aspect_ratio: the smallest 1:1 box around the unenlarged 400×300.
        #expect(try Self.plan("rs:fit:800:800/exar:1").canvas == .init(x: 0, y: 50, width: 400, height: 400))
        #expect(try Self.plan("rs:fit:800:400/exar:1").canvas == .init(x: 100, y: 0, width: 600, height: 300))
        // Padding after everything, times dpr.
        #expect(try Self.plan("rs:fit:200:0/pd:10:20").canvas == .init(x: 20, y: 10, width: 240, height: 170))
        #expect(try Self.plan("rs:fit:200:0/pd:1:2:3:4/dpr:2").canvas == .init(x: 8, y: 2, width: 412, height: 308))
        // The output limits count the canvas.
        #expect(try Self.plan("rs:fit:800:800/ex:1", maxSide: 400).result == PixelSize(width: 400, height: 400))
    }

    /// A 100×100 box in the 133×100 fill of a 400×300 source, and a 100×50 crop of it, for every gravity, placed
    /// as imgproxy's `calcPosition` does (the centre of an odd margin rounds half to even: 33 + 1 → 17,
    /// 250 + 1 → 126); offsets move inward from the gravity's edges, fractions of the side below 1.
    @Test(arguments: [("no", 17, 0, 150, 0), ("so", 17, 0, 150, 250), ("ea", 33, 0, 300, 126), ("we", 0, 0, 0, 126),
                      ("noea", 33, 0, 300, 0), ("nowe", 0, 0, 0, 0), ("soea", 33, 0, 300, 250), ("sowe", 0, 0, 0, 250),
                      ("ce", 17, 0, 150, 126), ("fp:0.75:0.25", 33, 0, 250, 50), ("nowe:10:0", 10, 0, 10, 0),
                      ("soea:10:20", 23, 0, 290, 230), ("ce:-0.1:0.1", 4, 0, 110, 156), ("we:5:5", 5, 0, 5, 131)])
    func everyGravity(name: String, boxX: Int, boxY: Int, cropX: Int, cropY: Int) throws {
        let fill = try Self.plan("rs:fill:100:100/g:\(name)")
        #expect(fill.box == .init(x: boxX, y: boxY, width: 100, height: 100))
        let crop = try Self.plan("c:100:50/g:\(name)")
        #expect(crop.region == .init(x: cropX, y: cropY, width: 100, height: 50))
    }

    @Test func admission() {
        var state = AdmissionState<String>(workers: 1, queueLimit: 1)
        let steps = [state.acquire(id: 1, waiter: "a"), state.acquire(id: 2, waiter: "b")]
        #expect(steps == [.granted, .queued])
        #expect(state.isFull)
        let third = state.acquire(id: 3, waiter: "c")
        #expect(third == .rejected)
        let cancelled = [state.cancel(id: 2), state.cancel(id: 2)]
        #expect(cancelled == ["b", nil])
        let fourth = state.acquire(id: 4, waiter: "d")
        #expect(fourth == .queued)
        let next = state.release()
        #expect(next == "d" && state.running == 1)
        let none = state.release()
        #expect(none == nil && state.running == 0 && !state.isFull)
    }

    @Test func flights() {
        var table = FlightTable<String, String>()
        let now = ContinuousClock.now
        guard case .lead(let flight, let deadline) = table.join(key: "k", waiterID: 1, waiter: "one",
                                                               deadline: now + .seconds(2)) else {
            Issue.record("the first waiter leads")
            return
        }
        let attached = table.attach("work", key: "k", flightID: flight)
        #expect(attached)
        if case .lead = table.join(key: "k", waiterID: 2, waiter: "two", deadline: now + .seconds(3)) {
            Issue.record("the second follows")
        }
        // The work runs until the latest deadline of its waiters; an earlier one moves it no earlier.
        _ = table.join(key: "k", waiterID: 4, waiter: "four", deadline: now + .seconds(1))
        #expect(deadline.current == now + .seconds(3))
        _ = table.leave(key: "k", waiterID: 4)
        let first = table.leave(key: "k", waiterID: 1)
        #expect(first.waiter == "one" && first.abandoned == nil)
        let finished = table.finish(key: "k", flightID: flight)
        #expect(finished == ["two"])
        #expect(table.count == 0)
        // Everyone leaving abandons the work; its late end delivers to nobody.
        guard case .lead(let second, _) = table.join(key: "k", waiterID: 3, waiter: "three", deadline: now) else { return }
        let last = table.leave(key: "k", waiterID: 3)
        #expect(last.waiter == "three" && last.abandoned == nil)
        let lateAttach = table.attach("late", key: "k", flightID: second)
        #expect(!lateAttach)
        let lateFinish = table.finish(key: "k", flightID: second)
        #expect(lateFinish.isEmpty)
    }

    /// The processor reads a source's header through its coders, and refuses what none of them reads.
    @Test func headers() throws {
        let processor = ImageProcessor(coders: .shared, maxSourcePixels: 1 << 30,
                                       limits: ProcessingPlan.Limits(maxSide: 8192, maxPixels: 1 << 24),
                                       encoding: EncodingDefaults(quality: 80, byFormat: [:]))
        func header(_ data: Data) throws(ProxyError) -> ImageHeader { try processor.header(of: SourceBytes(data: data)) }
        #expect(try header(Fixtures.jpeg(37, 21)).pixelSize == PixelSize(width: 37, height: 21))
        #expect(try header(Fixtures.png(5, 9)).pixelSize == PixelSize(width: 5, height: 9))
        #expect(try header(Fixtures.animatedGIF(12, 7)).pixelSize == PixelSize(width: 12, height: 7))
        let webp = try Fixtures.encode(Image(pixels: Fixtures.pixels(33, 17)), .webp)
        let read = try header(webp)
        #expect(read.format == .webp && read.pixelSize == PixelSize(width: 33, height: 17))
        #expect(throws: ProxyError.unprocessable("the source is not an image")) { try header(Data("hello".utf8)) }
        let known = ImageHeader(format: .png, pixelSize: PixelSize(width: 1, height: 2), hasAlpha: true)
        #expect(try processor.header(of: SourceBytes(data: Data("hello".utf8), header: known)) == known)
    }

    /// A source the plan resizes whole is decoded at the plan's exact size, in stored orientation, so nothing is
    /// resampled twice (2040×1360 into 512 is 512×341; rounding each side up gave 512×342); a crop of the source
    /// leaves the decoder its rounded-up size.
    @Test func decodeSizeIsThePlansResize() throws {
        let processor = ImageProcessor(coders: .shared, maxSourcePixels: 1 << 30,
                                       limits: ProcessingPlan.Limits(maxSide: 8192, maxPixels: 1 << 24),
                                       encoding: EncodingDefaults(quality: 80, byFormat: [:]))
        let photo = PixelSize(width: 2040, height: 1360), upright = PixelSize(width: 1360, height: 2040)
        let fit = try Self.plan("rs:fit:512:512", source: photo)
        #expect(fit.scaled == PixelSize(width: 512, height: 341))
        #expect(processor.storedResize(fit, upright: photo, orientation: .up, rotate: 0) == PixelSize(width: 512, height: 341))
        // Stored sideways (EXIF orientation 6), or turned by `rotate`: the decoder works in stored axes.
        let turned = try Self.plan("rs:fit:512:512", source: upright)
        #expect(processor.storedResize(turned, upright: upright, orientation: .right, rotate: 0)
                == PixelSize(width: 512, height: 341))
        #expect(processor.storedResize(turned, upright: upright, orientation: .up, rotate: 90)
                == PixelSize(width: 512, height: 341))
        #expect(processor.storedResize(try Self.plan("rs:force:300:100", source: photo), upright: photo,
                                       orientation: .up, rotate: 0) == PixelSize(width: 300, height: 100))
        #expect(processor.storedResize(try Self.plan("c:1000:1000/rs:fit:256:256", source: photo), upright: photo,
                                       orientation: .up, rotate: 0) == nil)
    }

    /// With no `q:`, `fq:`'s quality for the format wins, then the operator's per-format table (imgproxy's
    /// defaults WebP 79, AVIF 63, JPEG XL 77), then the default quality (80).
    @Test func qualityOrder() throws {
        let defaults = ImageProxyConfiguration().processing
        #expect(defaults.defaultQuality == 80 && defaults.formatQuality == [.webp: 79, .avif: 63, .jxl: 77])
        let quality = defaults.encodingDefaults
        var options = ProcessingOptions()
        #expect(quality.quality(for: .webp, options: options) == 79 && quality.quality(for: .jpeg, options: options) == 80)
        try OptionsParser().apply(["fq:webp:70:jpg:60"], to: &options)
        #expect(quality.quality(for: .webp, options: options) == 70 && quality.quality(for: .jpeg, options: options) == 60)
        #expect(quality.quality(for: .avif, options: options) == 63)
        try OptionsParser().apply(["q:90"], to: &options)
        #expect(quality.quality(for: .webp, options: options) == 90)
    }

    @Test func resultKeysIgnoreTheSignatureAndNormaliseAliases() throws {
        var a = ProcessingOptions(), b = ProcessingOptions()
        try OptionsParser().apply(["rs:fit:100:100", "q:80"], to: &a)
        try OptionsParser().apply(["w:100", "h:100", "quality:80"], to: &b)
        let format = FormatChoice(format: nil, dependsOnAccept: true)
        let quality = EncodingDefaults(quality: 80, byFormat: [.webp: 79])
        #expect(ResultKey.make(source: "s", options: a, format: format, encoding: quality)
            == ResultKey.make(source: "s", options: b, format: format, encoding: quality))
        #expect(ResultKey.make(source: "s", options: a, format: FormatChoice(format: .webp, dependsOnAccept: true),
                               encoding: quality) != ResultKey.make(source: "s", options: a, format: format,
                                                                   encoding: quality))
    }

    @Test func byteLRUEvictsTheLeastRecentlyUsed() {
        var lru = ByteLRU<Int>(limit: 10)
        lru.set(1, forKey: "a", cost: 4)
        lru.set(2, forKey: "b", cost: 4)
        _ = lru.value(forKey: "a")
        lru.set(3, forKey: "c", cost: 4)
        #expect(lru.value(forKey: "b") == nil)
        #expect(lru.value(forKey: "a") == 1 && lru.value(forKey: "c") == 3)
        lru.set(4, forKey: "huge", cost: 11)
        #expect(lru.value(forKey: "huge") == nil && lru.totalCost == 8)
    }
}
