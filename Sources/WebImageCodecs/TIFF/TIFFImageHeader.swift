import CTIFF
import Foundation
import WebImageCore

extension TIFFDecoding {
    /// The header from the directories' tags: the first page's size, orientation, alpha, depth and profile, and
    /// the frame count a full decode delivers. No strip or tile is read.
    static func header(_ bytes: UnsafeRawBufferPointer) throws -> ImageHeader {
        let file = try TIFFFile.open(reading: bytes)
        let first = TIFFPage(file)
        guard first.width > 0, first.height > 0 else {
            throw WebImageError.badImageData(.corrupt("image dimensions \(first.width)x\(first.height) are not positive"))
        }
        let frames = try frameDirectories(file, size: first.size, options: nil)
        return ImageHeader(format: .tiff, pixelSize: first.size, orientation: first.orientation, frameCount: frames.count,
                           hasAlpha: first.hasAlpha, bitDepth: first.bitsPerSample,
                           hasColorDescription: first.iccProfile != nil)
    }
}
