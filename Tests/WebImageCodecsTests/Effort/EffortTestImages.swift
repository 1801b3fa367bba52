import Foundation
import WebImage

/// Fixed inputs for the effort tests: photo-like rasters (far more than 256 colours) built in code.
enum EffortTestImages {
    static let opaque = Image(pixels: WebPTestImages.photo(width: 96, height: 64), hasAlpha: false)
    /// Alpha falling from opaque on the left to clear on the right.
    static let translucent = Image(pixels: WebPTestImages.photo(width: 96, height: 64, alpha: true), hasAlpha: true)
    /// Three 48×32 frames of 0.1 s, each a different photo-like raster with an alpha ramp.
    static let animation = Image(frames: (1...3).map {
        ImageFrame(pixels: WebPTestImages.photo(width: 48, height: 32, alpha: true, seed: UInt32($0)), duration: 0.1)
    }, loopCount: 2)
}

extension EffortTestImages {
    /// The FLEVEL field of the zlib header that starts a PNG's image data (0 fastest … 3 slowest), or nil.
    static func zlibLevel(ofPNG data: Data) -> Int? {
        guard let idat = PNGTestBytes.chunks([UInt8](data)).first(where: { $0.type == "IDAT" }),
              idat.data.count >= 2 else { return nil }
        return Int(idat.data[1] >> 6)
    }
}
