import Foundation
import LoopbackServer
import WebImage

/// The demo's network half: the real pipeline (manager → cache → downloader → coders → transformers) against
/// the in-process ``DemoServer``, each step checked against what SDWebImage's design promises.
struct NetworkPass {
    let server: DemoServer
    /// The disk cache's base directory (`<out>/cache`, namespace `demo`), emptied first so the cold pass is cold.
    let cacheDirectory: URL
    let downloader = ImageDownloader()
    var records: [DemoRecord] = []
    var cells: [ContactSheet.Cell] = []

    init(server: DemoServer, cacheDirectory: URL) {
        self.server = server
        self.cacheDirectory = cacheDirectory
    }

    /// A manager over a fresh `ImageCache` (empty memory) on the demo's disk directory.
    func freshManager() -> ImageManager {
        ImageManager(cache: ImageCache(namespace: "demo", directory: cacheDirectory), loader: downloader)
    }

    /// Runs every network step in order.
    mutating func run() async {
        let first = freshManager()
        await (first.imageCache as? ImageCache)?.clearDisk()
        await cachePasses(first)
        await coalescing(first)
        await progressive(first)
        await thumbnail(first)
        await transform(first)
        await failures(first)
        await revalidation()
        try? await downloader.shutdown()
    }

    /// Cold (network), warm (memory) and disk (a fresh manager on the same directory) passes over every format.
    private mutating func cachePasses(_ manager: ImageManager) async {
        let entries = server.entries
        let options: WebImageOptions = [.waitStoreCache]
        let cold = await loadAll(entries.map { server.url($0.path) }, manager, options)
        for (entry, load) in zip(entries, cold) {
            var record = load.record("cold " + entry.label)
            record.requests = server.server.requestCount(for: entry.path)
            record.check(load.cacheType == "none" && record.requests == 1, "a download (cache none, 1 request)")
            add(record, load.image)
        }
        let before = server.server.totalRequestCount
        let warmStart = ContinuousClock.now
        let warm = await loadAll(entries.map { server.url($0.path) }, manager, options)
        records.append(summary("warm pass: \(entries.count) images", warm, start: warmStart, before: before,
                               expected: "memory"))
        let diskStart = ContinuousClock.now
        let disk = await loadAll(entries.map { server.url($0.path) }, freshManager(), options)
        records.append(summary("disk pass: fresh manager", disk, start: diskStart, before: before, expected: "disk"))
    }

    /// 20 simultaneous loads of one URL: one request to the server, 20 images.
    private mutating func coalescing(_ manager: ImageManager) async {
        let url = server.url(DemoServer.burstPath)
        let start = ContinuousClock.now
        let loads = await loadAll(Array(repeating: url, count: 20), manager, [])
        var record = loads[0].record("coalescing: 20 loads/1 URL")
        record.loadMs = DemoLoad.millis(since: start)
        record.requests = server.server.requestCount(for: DemoServer.burstPath)
        record.check(loads.allSatisfy { $0.image != nil } && record.requests == 1, "20 images from 1 request")
        add(record, loads[0].image)
    }

    /// Loads every URL at once and returns the loads in order.
    func loadAll(_ urls: [URL], _ manager: ImageManager, _ options: WebImageOptions) async -> [DemoLoad] {
        await withTaskGroup(of: (Int, DemoLoad).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask { (index, await DemoLoad.run(manager, url, options: options)) }
            }
            var loads = [DemoLoad?](repeating: nil, count: urls.count)
            for await (index, load) in group { loads[index] = load }
            return loads.compactMap { $0 }
        }
    }

    /// One row for a whole pass: every image must come from `expected` with no new request.
    private func summary(_ step: String, _ loads: [DemoLoad], start: ContinuousClock.Instant, before: Int,
                         expected: String) -> DemoRecord {
        var record = DemoRecord(step: step, file: nil, format: "-")
        record.cacheType = expected
        record.loadMs = DemoLoad.millis(since: start)
        record.requests = server.server.totalRequestCount - before
        let wrong = loads.filter { $0.cacheType != expected }.map { $0.cacheType ?? "failure" }
        record.check(wrong.isEmpty && record.requests == 0 && !loads.isEmpty,
                     "all from \(expected) with no request" + (wrong.isEmpty ? "" : " (got \(wrong))"))
        return record
    }

    /// Appends the record, and a contact-sheet cell when there is an image to show.
    mutating func add(_ record: DemoRecord, _ image: Image?) {
        records.append(record)
        guard let image else { return }
        let size = ImageGeometry.thumbnailSize(source: image.pixelSize, requested: ContactSheet.box,
                                               preserveAspectRatio: true)
        let time = record.loadMs.map { "\(Int($0.rounded()))ms" } ?? ""
        cells.append(ContactSheet.Cell(thumbnail: Resampler.resample(image.pixels, to: size),
                                       label: [record.step, "\(record.cacheType ?? "-") \(image.pixelSize) \(time)"]))
    }
}
