import Foundation
import RedisTestSupport
import WebImageRedis

/// `webimage serve` with and without the shared Redis tier, side by side in one run against a real
/// `redis-server`: a warm shared-tier hit against a local disk hit, origin requests for a 1,000-URL workload
/// replayed across two instances, and what a dead or hung Redis adds to a request.
enum SharedTierBenchmark {
    enum Failure: Error { case status(Int) }

    static let latencyURLs = 200, latencyRounds = 5, workload = 1_000, concurrency = 8, deadURLs = 300

    static func run() throws {
        try Measure.waitFor { try await runAsync() }
    }

    private static func runAsync() async throws {
        let redis = try await RedisServerProcess.start()
        let instances = try await SharedTierInstances.start(images: workload)
        do {
            try await hitLatency(instances, redis: redis)
            try await originRequests(instances, redis: redis)
            try await deadRedis(instances)
        } catch {
            try? await instances.shutdown()
            redis.stop()
            throw error
        }
        try await instances.shutdown()
        redis.stop()
    }

    /// Every request on one side a disk hit (no memory tier), on the other a shared-tier hit (no local
    /// tier at all); one request at a time, the two sides alternating URL by URL.
    private static func hitLatency(_ instances: SharedTierInstances, redis: RedisServerProcess) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try await instances.instance(memory: 0, disk: directory, shared: nil)
        let shared = try await instances.instance(memory: 0, shared: [redis.endpoint])
        for index in 0..<latencyURLs {
            _ = try await disk.get(index, run: "latency")
            _ = try await shared.get(index, run: "latency")
        }
        try await Task.sleep(for: .seconds(1))
        let encodes = shared.proxy.statistics.snapshot.encodes
        var diskTimes: [Double] = [], sharedTimes: [Double] = [], roundMedians: [(disk: Double, shared: Double)] = []
        for round in 0..<latencyRounds {
            var diskRound: [Double] = [], sharedRound: [Double] = []
            for index in 0..<latencyURLs {
                if (round + index).isMultiple(of: 2) {
                    diskRound.append(try await disk.get(index, run: "latency"))
                    sharedRound.append(try await shared.get(index, run: "latency"))
                } else {
                    sharedRound.append(try await shared.get(index, run: "latency"))
                    diskRound.append(try await disk.get(index, run: "latency"))
                }
            }
            diskTimes += diskRound
            sharedTimes += sharedRound
            roundMedians.append((percentile(diskRound, 0.5), percentile(sharedRound, 0.5)))
        }
        let made = shared.proxy.statistics.snapshot.encodes - encodes
        let added = percentile(sharedTimes, 0.5) - percentile(diskTimes, 0.5)
        print(String(format: "warm hit over HTTP, %d URLs × %d rounds, one at a time: shared tier p50 %.2f ms p99 %.2f ms; "
                     + "local disk p50 %.2f ms p99 %.2f ms", latencyURLs, latencyRounds,
                     percentile(sharedTimes, 0.5) * 1e3, percentile(sharedTimes, 0.99) * 1e3,
                     percentile(diskTimes, 0.5) * 1e3, percentile(diskTimes, 0.99) * 1e3))
        print(String(format: "  per-round p50: shared %@ ms, disk %@ ms; shared − disk p50 %+.2f ms (target ≤ +2 ms) %@; "
                     + "results re-made on the shared side: %d", range(roundMedians.map(\.shared)),
                     range(roundMedians.map(\.disk)), added * 1e3, added <= 0.002 ? "met" : "NOT MET", made))
        await disk.stop()
        await shared.stop()
    }

    /// The workload twice, as a load balancer alternating over two instances would send it: each URL once
    /// to each instance (the first pass alternates A, B; the second B, A), `concurrency` requests at a time.
    private static func originRequests(_ instances: SharedTierInstances, redis: RedisServerProcess) async throws {
        let runs: [(label: String, endpoints: [RedisEndpoint]?, deadline: Duration)] = [
            ("without the shared tier", nil, .zero),
            ("with the shared tier, 50 ms deadline (default)", [redis.endpoint], .milliseconds(50)),
            ("with the shared tier, 500 ms deadline", [redis.endpoint], .milliseconds(500)),
        ]
        for (number, (label, endpoints, deadline)) in runs.enumerated() {
            let a = try await instances.instance(shared: endpoints, deadline: deadline)
            let b = try await instances.instance(shared: endpoints, deadline: deadline)
            let before = instances.origin.totalRequestCount
            let start = ContinuousClock.now
            for pass in 0..<2 {
                try await inParallel(count: workload) { index in
                    let first = (index + pass).isMultiple(of: 2)
                    _ = try await (first ? a : b).get(index, run: "workload-\(number)")
                }
            }
            let elapsed = seconds(ContinuousClock.now - start)
            let fetched = instances.origin.totalRequestCount - before
            let encodes = a.proxy.statistics.snapshot.encodes + b.proxy.statistics.snapshot.encodes
            print(String(format: "%d URLs × 2 instances %@: %d origin requests (%.2f per URL), %d encodes, %.1f s",
                         workload, label, fetched, Double(fetched) / Double(workload), encodes, elapsed)
                  + (endpoints == nil ? "" : "  (target: 1 per URL) \(fetched == workload ? "met" : "NOT MET")"))
            await a.stop()
            await b.stop()
        }
    }

    /// Full misses (origin fetch and processing each time) on an instance without the tier, one whose
    /// Redis refuses connections (killed), and one whose Redis accepts and never answers (hung), in turn.
    private static func deadRedis(_ instances: SharedTierInstances) async throws {
        let hung = try await FakeRedisServer.start(reply: nil)
        let refused = RedisEndpoint(host: "127.0.0.1", port: try RedisServerProcess.freePort())
        let sides = [("no shared tier", try await instances.instance(memory: 0, shared: nil)),
                     ("Redis killed (refused)", try await instances.instance(memory: 0, shared: [refused])),
                     ("Redis hung (no answer)", try await instances.instance(memory: 0, shared: [hung.endpoint]))]
        var times = Array(repeating: [Double](), count: sides.count)
        for index in 0..<deadURLs {
            for turn in 0..<sides.count {
                let side = (index + turn) % sides.count
                times[side].append(try await sides[side].1.get(index, run: "dead-\(side)"))
            }
        }
        let base = percentile(times[0], 0.5)
        for (side, (name, _)) in sides.enumerated() {
            print(String(format: "full miss, %@: p50 %.2f ms, p99 %.2f ms, max %.2f ms; p50 %+.2f ms over no tier",
                         name, percentile(times[side], 0.5) * 1e3, percentile(times[side], 0.99) * 1e3,
                         (times[side].max() ?? 0) * 1e3, (percentile(times[side], 0.5) - base) * 1e3))
        }
        print("  (deadline 50 ms, breaker opens after 3 failures for 5 s; target: added latency ≤ the deadline)")
        for (_, instance) in sides { await instance.stop() }
        await hung.stop()
    }

    private static func inParallel(count: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    for index in stride(from: worker, to: count, by: concurrency) { try await body(index) }
                }
            }
            try await group.waitForAll()
        }
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[Int((Double(sorted.count - 1) * fraction).rounded())]
    }

    private static func range(_ values: [Double]) -> String {
        String(format: "%.2f–%.2f", (values.min() ?? .nan) * 1e3, (values.max() ?? .nan) * 1e3)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
