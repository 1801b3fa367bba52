import CTIFF
import WebImageCore

/// The fields of the current directory that decoding needs, read without touching pixel data.
struct TIFFPage {
    var width: Int
    var height: Int
    var bitsPerSample: Int
    var samplesPerPixel: Int
    var photometric: Int
    var isContiguous: Bool
    var sampleFormat: Int
    var inkSet: Int
    var isTiled: Bool
    /// NewSubfileType: bit 0 marks a reduced-resolution copy (a thumbnail or pyramid level), not a page.
    var subfileType: UInt32
    var orientation: ImageOrientation
    /// How libtiff's RGBA reader treats the first extra sample, which this decoder follows too.
    var alpha: Alpha
    var iccProfile: [UInt8]?

    enum Alpha {
        case none, associated, unassociated
    }

    init(_ file: TIFFFile) {
        width = Int(file.value(TIFFTAG_IMAGEWIDTH, default: UInt32(0), defaulted: false))
        height = Int(file.value(TIFFTAG_IMAGELENGTH, default: UInt32(0), defaulted: false))
        bitsPerSample = Int(file.value(TIFFTAG_BITSPERSAMPLE, default: UInt16(1)))
        samplesPerPixel = Int(file.value(TIFFTAG_SAMPLESPERPIXEL, default: UInt16(1)))
        photometric = Int(file.value(TIFFTAG_PHOTOMETRIC, default: UInt16(PHOTOMETRIC_MINISWHITE), defaulted: false))
        isContiguous = Int32(file.value(TIFFTAG_PLANARCONFIG, default: UInt16(PLANARCONFIG_CONTIG))) == PLANARCONFIG_CONTIG
        sampleFormat = Int(file.value(TIFFTAG_SAMPLEFORMAT, default: UInt16(SAMPLEFORMAT_UINT)))
        inkSet = Int(file.value(TIFFTAG_INKSET, default: UInt16(INKSET_CMYK)))
        isTiled = TIFFIsTiled(file.handle) != 0
        subfileType = file.value(TIFFTAG_SUBFILETYPE, default: UInt32(0))
        orientation = ImageOrientation(exifValue: Int(file.value(TIFFTAG_ORIENTATION, default: UInt16(ORIENTATION_TOPLEFT))))
        let extra = file.shortArray(TIFFTAG_EXTRASAMPLES)
        // libtiff's rule (tif_getimage.c): an unspecified extra sample is associated alpha when there are more
        // than three samples; grey + unspecified is not alpha.
        switch extra.first.map(Int32.init) {
        case EXTRASAMPLE_ASSOCALPHA: alpha = .associated
        case EXTRASAMPLE_UNASSALPHA: alpha = .unassociated
        case EXTRASAMPLE_UNSPECIFIED where samplesPerPixel > 3: alpha = .associated
        default: alpha = .none
        }
        iccProfile = file.bytes(TIFFTAG_ICCPROFILE)
    }

    var size: PixelSize { PixelSize(width: width, height: height) }

    /// Whether this directory is a reduced-resolution copy rather than a page of its own.
    var isReducedImage: Bool { subfileType & UInt32(FILETYPE_REDUCEDIMAGE) != 0 }

    var hasAlpha: Bool { alpha != .none }

    /// Samples the direct reader takes from each pixel: RGB or grey, alpha when present.
    var colorSamples: Int { photometric == Int(PHOTOMETRIC_RGB) ? 3 : 1 }

    /// Whether ``TIFFDirectReader`` can decode this directory: contiguous unsigned 8- or 16-bit grey or RGB
    /// (with or without alpha), from strips or tiles, whatever the compression. Everything else (palettes, 1–4-bit
    /// grey, white-is-zero, YCbCr, CMYK without a profile, separate planes, LogLuv) goes through libtiff's RGBA reader.
    var isDirectlyReadable: Bool {
        guard isContiguous, sampleFormat == Int(SAMPLEFORMAT_UINT), bitsPerSample == 8 || bitsPerSample == 16 else {
            return false
        }
        switch Int32(photometric) {
        case PHOTOMETRIC_RGB: return samplesPerPixel >= 3 + (hasAlpha ? 1 : 0)
        case PHOTOMETRIC_MINISBLACK: return samplesPerPixel >= 1 + (hasAlpha ? 1 : 0)
        default: return false
        }
    }

    /// Whether this is 8-bit CMYK whose samples can go through its ICC profile (the direct CMYK path).
    var isProfiledCMYK: Bool {
        isContiguous && photometric == Int(PHOTOMETRIC_SEPARATED) && inkSet == Int(INKSET_CMYK)
            && sampleFormat == Int(SAMPLEFORMAT_UINT) && bitsPerSample == 8 && samplesPerPixel >= 4 && iccProfile != nil
    }

    /// The pixel format decoding delivers: `.rgba16` for 16-bit grey or RGB read directly, else `.rgba8`.
    var pixelFormat: PixelFormat { isDirectlyReadable && bitsPerSample == 16 ? .rgba16 : .rgba8 }
}
