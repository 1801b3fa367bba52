// Side-by-side benchmarks: each suite prints the library beside the raw C library or a peer, measured in
// the same run. `swift run -c release webimage-benchmarks [suite…]` (all suites when none is named).
let suites: [(name: String, run: () throws -> Void)] = [
    ("cache", CacheBenchmarks.run),
]

let wanted = Set(CommandLine.arguments.dropFirst())
for suite in suites where wanted.isEmpty || wanted.contains(suite.name) {
    print("== \(suite.name)")
    try suite.run()
}
