// Child process for the disk cache's process-level tests.
//
// `CacheCrashWriter <directory> <seed>`: writes entries into a disk cache forever, until the test kills it
// with SIGKILL.
// `CacheCrashWriter --full-disk <directory>`: stores key "entry" (1,000 bytes of 0xAA), then lowers this
// process's file-size limit to 64 KB and stores 256 KB under the same key, so the write fails part-way as on a
// full disk; prints `threw <code> <message>` (or `stored`) and exits 0.
//
// Entry for key "key-N" (N < 40): the line "key=<key> gen=<generation> len=<count> seed=<seed>\n", then
// <count> bytes of SplitMix64(seed) output, so a reader can regenerate exactly what was written.
import Foundation
import TestSupport
import WebImage

/// The `--full-disk` run: what a store does when the disk fills up under it.
func storeOnFullDisk(directory: String) -> Never {
    let disk = DiskCache(directory: URL(fileURLWithPath: directory))
    do {
        try disk.setData(Data(repeating: 0xAA, count: 1_000), forKey: "entry")
    } catch {
        print("setup failed: \(error)")
        exit(1)
    }
    // Past the limit write() fails with EFBIG instead of raising SIGXFSZ.
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit(rlim_cur: 64 * 1024, rlim_max: 64 * 1024)
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else {
        print("setrlimit failed")
        exit(1)
    }
    do {
        try disk.setData(Data(repeating: 0xBB, count: 256 * 1024), forKey: "entry")
        print("stored")
    } catch let error as WebImageError {
        print("threw \(error.code) \(error)")
    } catch {
        print("threw untyped \(error)")
    }
    exit(0)
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--full-disk" { storeOnFullDisk(directory: arguments[2]) }
guard arguments.count == 3, let baseSeed = UInt64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: CacheCrashWriter <directory> <seed> | --full-disk <directory>\n".utf8))
    exit(2)
}
let disk = DiskCache(directory: URL(fileURLWithPath: arguments[1]), configuration: .init(maxDiskSize: 6_000_000))
var random = SplitMix64(seed: baseSeed)
var generation = 0
while true {
    generation += 1
    let key = "key-\(random.next() % 40)"
    let seed = random.next()
    let count = Int(random.next() % 400_000) + 1
    var entry = Data("key=\(key) gen=\(baseSeed)-\(generation) len=\(count) seed=\(seed)\n".utf8)
    entry.append(SplitMix64.bytes(count: count, seed: seed))
    do {
        try disk.setData(entry, forKey: key, extendedData: Data("gen=\(generation)".utf8))
    } catch {
        FileHandle.standardError.write(Data("write failed: \(error)\n".utf8))
        exit(1)
    }
    if generation == 1 { FileHandle.standardOutput.write(Data("started\n".utf8)) }
}
