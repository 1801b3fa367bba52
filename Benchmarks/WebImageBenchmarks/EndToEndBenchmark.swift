import Foundation
import TestSupport
import WebImage

/// Issue 14's end-to-end row: `webimage fetch --thumbnail 256x256` (release) on 1,000 mixed images from a
/// loopback server, concurrency 6, cold cache, beside two Python peers doing the same work with a thread pool
/// of 6 — requests + Pillow and requests + pyvips — then our warm second run (all disk hits). Every side is a
/// child process timed whole (start-up included) and measured for peak RSS; the sides alternate round by
/// round.
enum EndToEndBenchmark {
    static let count = 1_000, concurrency = 6, rounds = 3

    static func run() throws {
        try Measure.waitFor { try await runRounds() }
    }

    private static func runRounds() async throws {
        let fixtures = try EndToEndFixtures.make()
        for fixture in fixtures.kinds {
            print(String(format: "fixture %@: %d bytes", fixture.name, fixture.data.count))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, urlFile) = try await fixtures.serve(count: count, in: directory)
        guard let webimage = cli() else {
            try await server.shutdown()
            return
        }
        let python = PythonPeers.python()
        var results = EndToEndResults()
        for round in 0..<rounds {
            let cache = directory.appendingPathComponent("ours\(round)").path
            let fetch = [webimage, "fetch", "--thumbnail", "256x256", "--concurrency", "\(concurrency)",
                         "--cache-dir", cache, "--from", urlFile.path]
            let peers = python.map { python in
                ["pillow", "pyvips"].map { peer in
                    (peer, [python, PythonPeers.script, peer, urlFile.path, "\(concurrency)",
                            directory.appendingPathComponent("\(peer)\(round)").path])
                }
            } ?? []
            // Alternate which side goes first, so neither always runs on a machine the other warmed.
            let oursFirst = round % 2 == 0
            if oursFirst { try results.recordOurs(cold: ChildRun.run(fetch), warm: ChildRun.run(fetch)) }
            for (peer, arguments) in peers { results.recordPeer(peer, try ChildRun.run(arguments)) }
            if !oursFirst { try results.recordOurs(cold: ChildRun.run(fetch), warm: ChildRun.run(fetch)) }
            results.closeRound()
        }
        results.print(count: count)
        // Issue 14's memory row: the same 1,000 images decoded at full size (no thumbnail), default limits.
        for round in 0..<rounds {
            let cache = directory.appendingPathComponent("full\(round)").path
            let run = try ChildRun.run([webimage, "fetch", "--json", "--concurrency", "\(concurrency)",
                                        "--cache-dir", cache, "--from", urlFile.path])
            Swift.print(String(format: "ours cold, full size (no thumbnail): %.0f img/s, peak RSS %.0f MB%@",
                               Double(count) / run.seconds, Double(run.peakRSSBytes) / 1_048_576,
                               run.status == 0 ? "" : " FAILED"))
        }
        try await server.shutdown()
    }

    /// The release `webimage` beside this benchmark, or nil (saying how to build it).
    static func cli() -> String? {
        let webimage = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("webimage").path
        guard FileManager.default.isExecutableFile(atPath: webimage) else {
            print("skipped: build the CLI first (swift build -c release -Xswiftc -warnings-as-errors --product webimage)")
            return nil
        }
        return webimage
    }
}

/// Every round's figures and their summary.
struct EndToEndResults {
    private var cold: [ChildRun] = [], warm: [ChildRun] = []
    private var peers: [String: [ChildRun]] = [:]
    private var ratios: [String: [Double]] = [:]

    mutating func recordOurs(cold: ChildRun, warm: ChildRun) {
        self.cold.append(cold)
        self.warm.append(warm)
    }

    mutating func recordPeer(_ name: String, _ run: ChildRun) {
        peers[name, default: []].append(run)
    }

    /// The round's ratios: each peer's time ÷ our cold time, and our cold ÷ warm time.
    mutating func closeRound() {
        guard let ours = cold.last else { return }
        for (name, runs) in peers where runs.count == cold.count { ratios[name, default: []].append(runs.last!.seconds / ours.seconds) }
        if let warm = warm.last { ratios["warm", default: []].append(ours.seconds / warm.seconds) }
    }

    func print(count: Int) {
        func line(_ name: String, _ runs: [ChildRun]) {
            let rates = runs.map { String(format: "%.0f", Double(count) / $0.seconds) }.joined(separator: ", ")
            let rss = runs.map { String(format: "%.0f", Double($0.peakRSSBytes) / 1_048_576) }.joined(separator: ", ")
            let failed = runs.filter { $0.status != 0 }.count
            Swift.print("\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) img/s per round: \(rates)   "
                + "peak RSS MB: \(rss)\(failed > 0 ? "   FAILED runs: \(failed)" : "")")
        }
        line("ours cold (webimage fetch)", cold)
        line("ours warm (all disk hits)", warm)
        for (name, runs) in peers.sorted(by: { $0.key < $1.key }) { line("peer requests + \(name)", runs) }
        for (name, values) in ratios.sorted(by: { $0.key < $1.key }) {
            let sorted = values.sorted()
            let label = name == "warm" ? "warm ÷ cold speed" : "ours ÷ \(name) speed"
            Swift.print(String(format: "%@ median %.2f×, range %.2f–%.2f×", label.padding(toLength: 34, withPad: " ", startingAt: 0),
                               sorted[sorted.count / 2], sorted.first!, sorted.last!))
        }
    }
}
