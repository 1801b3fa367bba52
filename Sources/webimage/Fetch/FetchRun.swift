import Foundation
import WebImage

/// Everything `fetch` needs, checked: load options and context, the cache, the downloader settings, the writer.
struct FetchRequest {
    var options: WebImageOptions
    var context: WebImageContext
    var cache: ImageCache
    var downloader: ImageDownloader.Configuration
    var output: FetchOutput?
    var json: Bool
}

/// One `fetch` batch: every URL loaded through one manager, results printed in input order.
///
/// Loads start in input order, a window of them at a time, so nearby duplicates coalesce in the downloader
/// (which also caps the concurrency) while a long list's results waiting to be printed stay bounded; each
/// result is printed as soon as it and every earlier one are in. Files are written from this task, one at a
/// time, so a URL given twice is written once.
struct FetchRun {
    var request: FetchRequest
    var urls: [String]

    /// Loads in flight or finished but not yet printed: enough to keep every download slot busy.
    var window: Int { max(64, 8 * request.downloader.maxConcurrentDownloads) }

    /// Runs the batch and returns the records in input order (already printed).
    func run() async -> [FetchRecord] {
        let downloader = ImageDownloader(configuration: request.downloader)
        let manager = ImageManager(cache: request.cache, loader: downloader)
        let display = ProgressDisplay(total: urls.count, overallLabel: "images", enabled: !request.json)
        var output = request.output
        var pending: [Int: Loaded] = [:]
        var records: [FetchRecord] = []
        await withTaskGroup(of: (Int, Loaded).self) { group in
            var started = 0
            func startNext() {
                let index = started, text = urls[index]
                started += 1
                group.addTask {
                    (index, await Self.load(text, index: index, manager: manager, request: request, display: display))
                }
            }
            while started < min(window, urls.count) { startNext() }
            for await (index, loaded) in group {
                pending[index] = loaded
                while let next = pending.removeValue(forKey: records.count) {
                    let record = Self.finish(next, url: urls[records.count], output: &output)
                    display.clear()
                    emit(record)
                    records.append(record)
                }
                while started < urls.count, started - records.count < window { startNext() }
            }
        }
        display.clear()
        try? await downloader.shutdown()
        return records
    }

    /// What one load gave.
    enum Loaded: Sendable {
        case image(ImageLoadResult, millis: Double)
        case failure(FetchRecord.Failure, millis: Double)
    }

    private static func load(_ text: String, index: Int, manager: ImageManager, request: FetchRequest,
                             display: ProgressDisplay) async -> Loaded {
        let start = ContinuousClock.now
        func millis() -> Double {
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
        defer { display.finish(index) }
        let url: URL
        switch URLArgument.check(text) {
        case .success(let checked): url = checked
        case .failure(let error): return .failure(.init(code: error.code, message: error.description), millis: millis())
        }
        var last: ImageLoadResult?
        var failure: WebImageError?
        for await event in manager.imageEvents(for: url, options: request.options, context: request.context) {
            switch event {
            case .progress(let received, let expected):
                display.update(index, label: text, received: received, expected: expected)
            case .partialImage: break
            case .result(let result): last = result
            case .failure(let error): failure = error
            case .noImage:
                failure = .invalidDownloadOperation("not in the cache, and fromCacheOnly forbids downloading")
            }
        }
        if let last { return .image(last, millis: millis()) }
        let error = failure ?? .cancelled
        return .failure(.init(code: error.code, message: error.description), millis: millis())
    }

    /// The record for a load, writing the file when asked.
    private static func finish(_ loaded: Loaded, url: String, output: inout FetchOutput?) -> FetchRecord {
        switch loaded {
        case .failure(let failure, let millis):
            return FetchRecord(url: url, error: failure, millis: millis)
        case .image(let result, let millis):
            var record = FetchRecord(url: url, result: result, millis: millis)
            guard output != nil else { return record }
            do {
                record.file = try output?.write(result, url: url)
            } catch {
                let message = CLIFailure(subject: url, error: error).reason
                let code = (error as? WebImageError)?.code ?? FetchRecord.Failure.writeFailedCode
                record = FetchRecord(url: url, error: .init(code: code, message: message), millis: millis)
            }
            return record
        }
    }

    /// Prints the record: a JSON line, or a text line (failures also as a one-line error on stderr).
    private func emit(_ record: FetchRecord) {
        if request.json {
            print((try? JSONOutput.text(record)) ?? "{}")
        } else {
            print(record.text)
            if let error = record.error { Console.error("webimage: \(record.url): \(error.message)") }
        }
    }
}
