import CTIFF
import Foundation
import WebImageCore

/// Decodes a TIFF's pages into frames: every top-level directory of the first page's size that is not a
/// reduced-resolution copy is a frame (only the first with ``ImageDecodeOptions/firstFrameOnly``).
enum TIFFDecoding {
    /// The largest single allocation allowed while decoding `page`: the base limit, or the page's stored
    /// samples (a single-strip file holds them all in one strip), whichever is larger.
    static func allocationLimit(for page: TIFFPage) -> Int {
        let samples = min(max(page.samplesPerPixel, 1), maxDirectSamples)
        let bytes = (page.width * page.height).multipliedReportingOverflow(by: samples * 2)
        return max(TIFFFile.baseAllocationLimit, bytes.overflow ? .max : bytes.partialValue + (1 << 20))
    }

    /// More samples a pixel than this is no image the web serves; such a directory goes to libtiff's reader,
    /// which bounds its own allocations.
    static let maxDirectSamples = 8

    /// Decodes the first page into `store`'s raster and the other pages (unless only the first is asked for)
    /// into new ones.
    static func decode(_ bytes: UnsafeRawBufferPointer, store: inout RasterStore, options: ImageDecodeOptions) throws
        -> Image {
        var file = try TIFFFile.open(reading: bytes)
        let first = TIFFPage(file)
        try options.checkPixelCount(width: first.width, height: first.height)
        let limit = allocationLimit(for: first)
        if limit > TIFFFile.baseAllocationLimit {
            file = try TIFFFile.open(reading: bytes, maxSingleAllocation: limit)
        }
        // The first page is decoded before the others are looked for, so a one-page file's directory is parsed once.
        let (firstPixels, outcome) = try decodePage(file, page: first, store: &store, options: options)
        var frames = [ImageFrame(pixels: firstPixels)]
        if !options.firstFrameOnly {
            let pages = try frameDirectories(file, size: first.size, options: options)
            try options.checkAnimation(frameCount: pages.count, canvas: first.size)
            for directory in pages.dropFirst() {
                file.log.reset()
                guard TIFFSetDirectory(file.handle, UInt32(directory)) != 0 else {
                    throw file.log.failure("directory \(directory) cannot be read")
                }
                var fresh = RasterStore.fresh
                let (pixels, _) = try decodePage(file, page: TIFFPage(file), store: &fresh, options: options)
                frames.append(ImageFrame(pixels: pixels.converted(to: firstPixels.format)))
            }
        }
        let image = Image(frames: frames, orientation: first.orientation, format: .tiff, hasAlpha: first.hasAlpha,
                          iccProfile: outcome.iccProfile, colorProfileIssue: outcome.issue)
        return options.finish(image, sourceSize: first.size)
    }

    /// The indexes of the directories that are frames, reading their tags only; the handle is left on the last one.
    static func frameDirectories(_ file: TIFFFile, size: PixelSize, options: ImageDecodeOptions?) throws -> [Int] {
        var frames = [0]
        var directory = 0
        file.log.reset()
        while TIFFReadDirectory(file.handle) != 0 {
            directory += 1
            let page = TIFFPage(file)
            guard !page.isReducedImage, page.size == size else { continue }
            frames.append(directory)
            try options?.checkFrameCount(frames.count)
        }
        return frames
    }

    /// One page as RGBA (16-bit for 16-bit grey or RGB), colour-managed per the options in the raster it was
    /// decoded into.
    private static func decodePage(_ file: TIFFFile, page: TIFFPage, store: inout RasterStore,
                                   options: ImageDecodeOptions) throws -> (PixelBuffer, ColorManagement.Outcome) {
        guard page.width > 0, page.height > 0 else {
            throw WebImageError.badImageData(.corrupt("page dimensions \(page.width)x\(page.height)"))
        }
        var cmykIssue: String?
        if page.isProfiledCMYK {
            switch try profiledCMYK(file, page: page, store: &store) {
            case .success(let pixels): return (pixels, .none)
            case .failure(let failure): cmykIssue = failure.reason
            }
        }
        let direct = page.isDirectlyReadable && page.samplesPerPixel <= maxDirectSamples
        let format = direct ? page.pixelFormat : .rgba8
        // A CMYK page's profile is a CMYK one: libtiff's reader already made RGB without it.
        let profile = page.photometric == Int(PHOTOMETRIC_SEPARATED) ? nil : page.iccProfile
        var outcome = ColorManagement.Outcome.none
        let pixels = try store.fill(width: page.width, height: page.height, format: format) { out in
            if direct {
                try TIFFDirectReader(file: file, page: page).read(into: out, expansion: .rgba)
            } else {
                try TIFFRGBAReader.read(file, page: page, into: out)
            }
            outcome = ColorManagement.manage(out, format: format, pixelCount: page.width * page.height,
                                             profile: profile, options: options)
        }
        outcome.issue = outcome.issue ?? cmykIssue
        return (pixels, outcome)
    }

    /// 8-bit CMYK through its ICC profile to sRGB (in every colour mode: the model is RGB); a failure when lcms2
    /// cannot use the profile, so libtiff's plain conversion decodes the page instead.
    private static func profiledCMYK(_ file: TIFFFile, page: TIFFPage, store: inout RasterStore) throws
        -> Result<PixelBuffer, ColorProfileFailure> {
        guard let profile = page.iccProfile, page.samplesPerPixel <= maxDirectSamples else {
            return .failure(ColorProfileFailure("the CMYK page has too many samples"))
        }
        var conversion: Result<Void, ColorProfileFailure> = .success(())
        let pixels = try store.fill(width: page.width, height: page.height) { out in
            try TIFFDirectReader(file: file, page: page).read(into: out, expansion: .cmyk)
            conversion = ColorManagement.convertCMYK(out, pixelCount: page.width * page.height, profile: profile,
                                                     inverted: false)
        }
        return conversion.map { pixels }
    }
}
