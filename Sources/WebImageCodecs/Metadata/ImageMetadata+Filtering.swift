import Foundation
import WebImageCore

extension ImageMetadata {
    /// What imgproxy's `keep_copyright` keeps: EXIF IFD0 Artist and Copyright (a new TIFF structure holding only
    /// them), IPTC's by-line, credit and copyright notice (and records other than the application record), XMP's
    /// `dc` rights, creator, contributor and publisher, `xmpRights` and `cc`. Nil when nothing is left.
    public var copyrightOnly: ImageMetadata? {
        let kept = ImageMetadata(exif: exif.flatMap(EXIFFilter.copyrightOnly), xmp: xmp.flatMap(XMPFilter.copyrightOnly),
                                 iptc: iptc.flatMap(IPTCFilter.copyrightOnly))
        return kept.isEmpty ? nil : kept
    }

    /// Everything kept, with the EXIF orientation (where IFD0 has one) set to `orientation`; an EXIF structure
    /// that cannot be read is dropped.
    public func settingEXIFOrientation(_ orientation: ImageOrientation) -> ImageMetadata {
        var copy = self
        copy.exif = exif.flatMap { EXIFFilter.settingOrientation($0, to: orientation.rawValue) }
        return copy
    }

    /// The EXIF to write for an image shown with `orientation`: this metadata's, its orientation entry made to
    /// agree. Nil when there is none (or it cannot be read).
    func exif(for orientation: ImageOrientation) -> Data? {
        exif.flatMap { EXIFFilter.settingOrientation($0, to: orientation.rawValue) }
    }
}
