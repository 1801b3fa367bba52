import Foundation
import FuzzSupport
import WebImage

/// Every decoder's entry point: the registered coder that claims the bytes decodes them, whole or fed in two
/// parts to its progressive decoder. The input's last byte picks the options, so one corpus file reaches each
/// path; the limits keep a large valid image from slowing the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let selector = data.last ?? 0
    let options = ImageDecodeOptions(
        thumbnailPixelSize: selector & 1 == 0 ? nil : PixelSize(width: 64, height: 64),
        applyOrientation: selector & 2 != 0, maxPixelCount: 4_000_000, maxFrameCount: 32,
        maxAnimationPixelCount: 16_000_000, colorSpace: selector & 4 == 0 ? .sRGB : .preserve)
    if selector & 8 != 0, let decoder = CodersManager.shared.progressiveDecoder(for: data, options: options) {
        _ = try? decoder.decode(data.prefix(count / 2), isFinished: false)
        _ = try? decoder.decode(data, isFinished: true)
    } else {
        _ = try? CodersManager.shared.decode(data, options: options)
    }
    return 0
}

@main enum FuzzImageDecode {
    static func main() { runFuzzer(testOneInput) }
}
