import Dispatch
import Foundation
import Synchronization
import TestSupport
import WebImage

/// The manager: warm memory hits per second, and a cold end-to-end run beside a Python + Pillow peer.
///
/// Cold: 1,000 distinct URLs of one 1024 × 768 JPEG from the loopback server, each downloaded, decoded to a
/// 256 px thumbnail and stored on disk (original bytes + the thumbnail as JPEG quality 75), 6 at a time;
/// `Benchmarks/peer_pillow.py` does the same work against the same server in the same run (rounds
/// alternate; the best of each side counts).
enum ManagerBenchmarks {
    static let coldCount = 1_000
    static let concurrency = 6

    static func run() throws {
        try warmMemoryHits()
        try Measure.waitFor { try await coldEndToEnd() }
    }

    /// Loads per second of one URL already in the memory cache, on one thread and on two.
    private static func warmMemoryHits() throws {
        let directory = temporaryDirectory("warm")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ImageCache(namespace: "bench", directory: directory,
                               configuration: ImageCache.Configuration(expirationInterval: nil))
        let url = URL(string: "https://example.com/images/avatar.png")!
        cache.storeImage(Image(pixels: PixelBuffer(width: 64, height: 64), hasAlpha: true), forKey: url.absoluteString,
                         cacheType: .memory)
        let manager = ImageManager(cache: cache, loader: ImageDownloader())
        // One counter per thread, each on its own lines: a shared one would be written by both threads on
        // every load, a cost of the benchmark rather than of the manager.
        let counters = [HitCounter(), HitCounter()]
        let completions: [ImageManager.CompletionHandler] = counters.map { counter in
            { image, _, _, cacheType, _, _ in
                if image != nil && cacheType == .memory { counter.hits.wrappingAdd(1, ordering: .relaxed) }
            }
        }
        let loads = 500_000
        let single = Measure.best(repeats: 3) {
            let completion = completions[0]
            for _ in 0..<loads { manager.loadImage(with: url, completed: completion) }
        }
        let threads = 2
        let parallel = Measure.best(repeats: 3) {
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                let completion = completions[thread]
                for _ in 0..<loads { manager.loadImage(with: url, completed: completion) }
            }
        }
        let hits = counters.reduce(0) { $0 + $1.hits.load(ordering: .relaxed) }
        guard hits == loads * 4 + loads * threads * 4 else {
            print("warm memory hits: some loads missed the memory cache")
            return
        }
        print(String(format: "warm memory-hit loads, 1 thread:  %10.0f loads/s (target ≥ 500,000)", Double(loads) / single))
        print(String(format: "warm memory-hit loads, %d threads: %10.0f loads/s", threads,
                     Double(loads * threads) / parallel))
    }

    private static func coldEndToEnd() async throws {
        let server = try await TestHTTPServer.start()
        let jpeg = try makeJPEG(width: 1024, height: 768)
        let rounds = 2
        for round in 0..<rounds {
            for index in 0..<coldCount {
                server.route("/ours\(round)/\(index).jpg", TestResponse(body: jpeg))
                server.route("/peer\(round)/\(index).jpg", TestResponse(body: jpeg))
            }
        }
        let downloader = ImageDownloader()
        let directory = temporaryDirectory("cold")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Other processes share this machine: alternate ours and the peer, keep the best round of each.
        var ours = Double.infinity, peer: Double? = .infinity
        for round in 0..<rounds {
            let elapsed = try await coldRound(server: server, downloader: downloader, round: round,
                                              directory: directory.appendingPathComponent("ours\(round)"))
            ours = min(ours, elapsed)
            if let peerBest = peer {
                let peerRound = runPeer(base: server.url("/peer\(round)").absoluteString,
                                        directory: directory.appendingPathComponent("peer\(round)"))
                peer = peerRound.map { min(peerBest, $0) }
            }
        }
        print(String(format: "cold 1,000 x 1024x768 JPEG -> 256 px thumbnail + disk, concurrency %d: %.3f s (%.0f img/s)",
                     concurrency, ours, Double(coldCount) / ours))
        if let peer {
            print(String(format: "peer (Python http.client + concurrent.futures + Pillow): %.3f s", peer))
            Measure.row("cold end-to-end vs Python+Pillow", ours: Double(coldCount) / ours,
                        theirs: Double(coldCount) / peer, unit: "img/s", higherIsBetter: true)
        }
        try await downloader.shutdown()
        try await server.shutdown()
    }

    /// Seconds for one cold round through a manager over a fresh cache in `directory`.
    private static func coldRound(server: TestHTTPServer, downloader: ImageDownloader, round: Int,
                                  directory: URL) async throws -> Double {
        let cache = ImageCache(namespace: "bench", directory: directory,
                               configuration: ImageCache.Configuration(expirationInterval: nil))
        let manager = ImageManager(cache: cache, loader: downloader)
        let context = WebImageContext(decodeOptions: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 256, height: 256)),
                                      encodeOptions: ImageEncodeOptions(quality: 0.75))
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    for index in stride(from: worker, to: coldCount, by: concurrency) {
                        let result = try await manager.image(for: server.url("/ours\(round)/\(index).jpg"),
                                                             options: .waitStoreCache, context: context)
                        guard max(result.image.pixelWidth, result.image.pixelHeight) == 256 else {
                            throw WebImageError.invalidOption("unexpected thumbnail size")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return seconds(ContinuousClock.now - start)
    }

    /// Runs `Benchmarks/peer_pillow.py`; nil (with the reason printed) when Python or Pillow is missing.
    private static func runPeer(base: String, directory: URL) -> Double? {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("peer_pillow.py")
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            print("peer skipped: \(python) not found")
            return nil
        }
        let errors = directory.appendingPathComponent("peer-stderr")
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess(URL(fileURLWithPath: python),
                                         [script.path, base, String(coldCount), String(concurrency), directory.path],
                                         stdout: .pipe, stderr: .file(errors))
        } catch {
            print("peer skipped: cannot run \(python): \(error)")
            return nil
        }
        let text = String(decoding: process.standardOutput?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        process.waitUntilExit()
        let problems = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        guard process.termination == .exited(0), let elapsed = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            let reason = problems.contains("No module named 'PIL'") ? "Pillow is not installed" : problems
            print("peer skipped: \(reason.trimmingCharacters(in: .whitespacesAndNewlines))")
            return nil
        }
        return elapsed
    }

    /// A smooth colour field (so the JPEG is realistic, not a flat block).
    private static func makeJPEG(width: Int, height: Int) throws -> Data {
        let pixels = PixelBuffer(width: width, height: height) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    bytes[i] = UInt8(truncatingIfNeeded: x &* 255 / width)
                    bytes[i + 1] = UInt8(truncatingIfNeeded: y &* 255 / height)
                    bytes[i + 2] = UInt8(truncatingIfNeeded: (x ^ y) & 0xFF)
                    bytes[i + 3] = 255
                }
            }
        }
        return try CodersManager.shared.encode(Image(pixels: pixels, format: .jpeg, hasAlpha: false), as: .jpeg,
                                               options: ImageEncodeOptions(quality: 0.85))
    }

    private static func temporaryDirectory(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("SwiftWebImageBench-\(name)-\(UUID().uuidString)")
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// A hit count alone on its cache lines.
private final class HitCounter: Sendable {
    private let before: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    let hits = Atomic<Int>(0)
    private let after: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
}
