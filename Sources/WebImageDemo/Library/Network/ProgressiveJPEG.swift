import CTurboJPEG
import Foundation
import WebImage

/// Progressive JPEG for the demo's server: the library's encoder writes baseline only (as SDWebImage's does),
/// so the demo asks TurboJPEG for progressive scans itself.
enum ProgressiveJPEG {
    /// `pixels` (RGBA, opaque) as a progressive 4:2:0 JPEG of `quality` 1…100.
    static func encode(_ pixels: PixelBuffer, quality: Int) throws -> Data {
        let rgba = pixels.converted(to: .rgba8)
        guard let handle = tjInitCompress() else {
            throw WebImageError.encodingFailed(format: .jpeg, reason: "TurboJPEG did not start")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        defer { tjFree(output) }
        let status = rgba.withUnsafeBytes { raw in
            tjCompress2(handle, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(rgba.width), 0,
                        Int32(rgba.height), Int32(TJPF_RGBA.rawValue), &output, &length,
                        Int32(TJSAMP_420.rawValue), Int32(quality), TJFLAG_PROGRESSIVE)
        }
        guard status == 0, let output else {
            throw WebImageError.encodingFailed(format: .jpeg, reason: String(cString: tjGetErrorStr2(handle)))
        }
        return Data(bytes: output, count: Int(length))
    }
}
