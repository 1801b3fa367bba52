// Child process for the cache crash test: writes entries into a disk cache forever, until the test kills it
// with SIGKILL. Usage: CacheCrashWriter <directory> <seed>
//
// Entry for key "key-N" (N < 40): the line "key=<key> gen=<generation> len=<count> seed=<seed>\n", then
// <count> bytes of SplitMix64(seed) output, so a reader can regenerate exactly what was written.
import Foundation
import WebImage

/// The generator the test regenerates payloads with (SplitMix64).
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func payload(count: Int, seed: UInt64) -> Data {
    var generator = SplitMix64(state: seed)
    var bytes = [UInt8](repeating: 0, count: count)
    for index in stride(from: 0, to: count, by: 8) {
        let word = generator.next()
        for offset in 0..<min(8, count - index) { bytes[index + offset] = UInt8(truncatingIfNeeded: word >> (8 * offset)) }
    }
    return Data(bytes)
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let baseSeed = UInt64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: CacheCrashWriter <directory> <seed>\n".utf8))
    exit(2)
}
let disk = DiskCache(directory: URL(fileURLWithPath: arguments[1]), configuration: .init(maxDiskSize: 6_000_000))
var random = SplitMix64(state: baseSeed)
var generation = 0
while true {
    generation += 1
    let key = "key-\(random.next() % 40)"
    let seed = random.next()
    let count = Int(random.next() % 400_000) + 1
    var entry = Data("key=\(key) gen=\(baseSeed)-\(generation) len=\(count) seed=\(seed)\n".utf8)
    entry.append(payload(count: count, seed: seed))
    do {
        try disk.setData(entry, forKey: key, extendedData: Data("gen=\(generation)".utf8))
    } catch {
        FileHandle.standardError.write(Data("write failed: \(error)\n".utf8))
        exit(1)
    }
    if generation == 1 { FileHandle.standardOutput.write(Data("started\n".utf8)) }
}
