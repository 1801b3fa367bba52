import FuzzSupport
import WebImageRedis

/// A value read from the shared tier (anyone who can write to Redis can store one): refused or decoded, never a
/// trap. The input is the frame without its checksum, appended here: random bytes would never carry a valid
/// one, and the checks behind it are what is fuzzed. A decoded value must encode to one that decodes to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let frame = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let entry = SharedCacheEntry(decoding: frame + ValueChecksum.of(frame)) {
        precondition(SharedCacheEntry(decoding: entry.encoded) == entry, "a decoded value does not encode back")
    }
    return 0
}

@main enum FuzzSharedCacheEntry {
    static func main() { runFuzzer(testOneInput) }
}
