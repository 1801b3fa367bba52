import Foundation
import LoopbackServer
import WebImage
import WebImageCLISupport

extension NetworkPass {
    /// A slow dripping progressive JPEG with `progressiveLoad`: sharper partial images, then the final one.
    mutating func progressive(_ manager: ImageManager) async {
        let start = ContinuousClock.now
        var partials: [Image] = []
        var final: Image?
        var failure: WebImageError?
        for await event in manager.imageEvents(for: server.url(DemoServer.slowPath), options: [.progressiveLoad]) {
            switch event {
            case .partialImage(let image): partials.append(image)
            case .result(let result): final = result.image
            case .failure(let error): failure = error
            case .progress, .noImage: break
            }
        }
        var record = DemoRecord(step: "progressive: slow download", file: nil, format: "jpeg")
        record.loadMs = DemoLoad.millis(since: start)
        record.cacheType = "none"
        record.progressiveUpdates = partials.count
        record.width = final?.pixelWidth
        record.height = final?.pixelHeight
        record.requests = server.server.requestCount(for: DemoServer.slowPath)
        if let failure { record.failure = "error \(failure.code): \(failure.description)" }
        let finalIsWhole = final.map { !$0.isIncremental } == true
        record.check(finalIsWhole && !partials.isEmpty && partials.allSatisfy(\.isIncremental),
                     "partial images, then a final one")
        if let first = partials.first {
            cells.append(ContactSheet.Cell(thumbnail: Resampler.resample(first.pixels, to: thumbnailSize(first)),
                                           label: ["progressive: 1st partial", "of \(partials.count) partials"]))
        }
        add(record, final)
    }

    /// A thumbnail of the large JPEG, derived from the cached original: no second request.
    mutating func thumbnail(_ manager: ImageManager) async {
        var context = WebImageContext()
        context.decodeOptions.thumbnailPixelSize = ContactSheet.box
        let load = await DemoLoad.run(manager, server.url(DemoServer.largePath), context: context)
        var record = load.record("thumbnail: large jpeg")
        record.requests = server.server.requestCount(for: DemoServer.largePath)
        let expected = ImageGeometry.thumbnailSize(source: PixelSize(width: 1600, height: 1200),
                                                   requested: ContactSheet.box, preserveAspectRatio: true)
        record.check(load.image?.pixelSize == expected && record.requests == 1,
                     "a \(expected) thumbnail from the cached original, no new request")
        add(record, load.image)
    }

    /// A transformer pipeline (resize to cover, round corners, flip) over the cached baseline JPEG.
    mutating func transform(_ manager: ImageManager) async {
        let spec = "resize:200x150:cover;round:24;flip:h"
        var context = WebImageContext()
        do {
            context.transformer = try TransformSpec.parse(spec)
        } catch {
            var record = DemoRecord(step: "transform", file: nil, format: "-")
            record.failure = String(describing: error)
            return add(record, nil)
        }
        let path = "/photo-q90.jpg"
        let load = await DemoLoad.run(manager, server.url(path), options: [.waitStoreCache], context: context)
        var record = load.record("transform pipeline")
        record.requests = server.server.requestCount(for: path)
        let image = load.image
        record.check(image?.pixelSize == PixelSize(width: 200, height: 150) && image?.hasAlpha == true
                        && record.requests == 1,
                     "200x150 with transparent corners, from the cached original")
        if record.ok { record.fidelity = spec }
        add(record, image)
    }

    /// A 404 (2001), a corrupt file (1001), then the 404 again: blocked by the failed-URL list (1003), no request.
    mutating func failures(_ manager: ImageManager) async {
        let cases: [(String, String, Int)] = [("404 not found", DemoServer.missingPath, 2001),
                                              ("corrupt file", DemoServer.corruptPath, 1001),
                                              ("failed-URL list: 404 again", DemoServer.missingPath, 1003)]
        for (step, path, code) in cases {
            let load = await DemoLoad.run(manager, server.url(path))
            var record = load.record(step)
            record.requests = server.server.requestCount(for: path)
            var got: Int?
            if case .failure(let error) = load.outcome { got = error.code }
            record.check(got == code && record.requests == 1, "error \(code) after exactly 1 request")
            if record.ok { record.fidelity = "error \(code)" }
            add(record, nil)
        }
    }

    /// `refreshCached` on a cached image: the cached copy at once, then a conditional request answered 304.
    mutating func revalidation() async {
        let manager = freshManager()
        let url = server.url(DemoServer.etagPath)
        let first = await DemoLoad.run(manager, url, options: [.waitStoreCache])
        let start = ContinuousClock.now
        var results: [ImageLoadResult] = []
        for await event in manager.imageEvents(for: url, options: [.refreshCached]) {
            if case .result(let result) = event { results.append(result) }
        }
        var record = first.record("revalidation: 304")
        record.loadMs = DemoLoad.millis(since: start)
        record.cacheType = results.first.map(\.cacheType.name)
        let requests = server.server.requests(for: DemoServer.etagPath)
        record.requests = requests.count
        let conditional = requests.last?.header("If-None-Match") == "\"demo-v1\""
        record.check(results.count == 1 && requests.count == 2 && conditional,
                     "the cached image once, and one conditional request (If-None-Match) answered 304")
        add(record, results.first?.image)
    }

    private func thumbnailSize(_ image: Image) -> PixelSize {
        ImageGeometry.thumbnailSize(source: image.pixelSize, requested: ContactSheet.box, preserveAspectRatio: true)
    }
}
