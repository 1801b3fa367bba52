import CTurboJPEG
import Foundation
import WebImageCore

/// What a JPEG says before its first scan: TurboJPEG's frame size and colour space, and the marker segments it
/// does not report (orientation, ICC profile, Adobe marker). Read once for a decode and alone for a header.
struct JPEGFrameHeader {
    let markers: JPEGMarkers
    let size: PixelSize
    /// CMYK or YCCK samples (converted to RGB through the profile or the plain formula).
    let isCMYK: Bool

    /// Reads the header of the JPEG in `raw` (which starts with SOI); `.truncated` when it ends before a frame
    /// size, `.corrupt` with libjpeg's message otherwise.
    init(_ raw: UnsafeRawBufferPointer, handle: TurboJPEGHandle) throws {
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw WebImageError.badImageData(.empty)
        }
        let markers = JPEGMarkers(scanning: raw)
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = tjDecompressHeader3(handle.raw, base, UInt(raw.count), &width, &height, &subsampling, &colorspace)
        // A header that only warned (stray bytes between markers) is still usable; one without a frame
        // size is not, whatever the status says.
        if width <= 0 || height <= 0 || (status != 0 && !JPEGErrors.isWarning(handle.message)) {
            throw markers.endsBeforeScan ? WebImageError.badImageData(.truncated) : JPEGErrors.corrupt(handle.message)
        }
        self.markers = markers
        size = PixelSize(width: Int(width), height: Int(height))
        isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
    }

    /// The header of complete or partial JPEG bytes.
    static func header(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        let handle = try TurboJPEGHandle(forDecoding: true)
        let frame = try data.withUnsafeBytes { try JPEGFrameHeader($0, handle: handle) }
        return ImageHeader(format: .jpeg, pixelSize: frame.size, orientation: frame.markers.orientation,
                           hasAlpha: false, hasColorDescription: frame.markers.iccProfile != nil)
    }
}
