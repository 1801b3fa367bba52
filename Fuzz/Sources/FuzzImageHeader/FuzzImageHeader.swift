import Foundation
import FuzzSupport
import WebImage

/// Every header reader at once: the registered coder that claims the bytes reads their header.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? CodersManager.shared.header(for: start.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

@main enum FuzzImageHeader {
    static func main() { runFuzzer(testOneInput) }
}
