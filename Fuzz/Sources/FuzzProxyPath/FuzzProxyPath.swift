import FuzzSupport
import WebImageServer

/// A request path as a client sends it: split into signature, options and source, then every option parsed;
/// either step may refuse it with a `ProxyError`, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let path = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    guard let parsed = try? ProxyPath(Substring(path)) else { return 0 }
    var options = ProcessingOptions()
    try? parser.apply(parsed.optionSegments, to: &options)
    return 0
}

@main enum FuzzProxyPath {
    static func main() { runFuzzer(testOneInput) }
}

/// Presets naming each other, so expansion and its depth limit are reached.
private let parser = OptionsParser(presets: ["thumb": "rs:fill:300:300/q:80", "loop": "pr:loop", "both": "pr:thumb:loop"])
