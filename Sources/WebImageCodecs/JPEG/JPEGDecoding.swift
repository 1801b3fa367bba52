import CJPEGShim
import CTurboJPEG
import Foundation
import WebImageCore

/// One-shot decoding with TurboJPEG straight into the image's own pixel storage.
enum JPEGDecoding {
    /// Decodes complete JPEG bytes at the size `options` ask for, DCT-scaled where that helps.
    /// The raster is written into `store` (new storage or a caller's buffer).
    static func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        let handle = try TurboJPEGHandle(forDecoding: true)
        return try data.withUnsafeBytes { raw in
            try decode(raw, of: data, handle: handle, store: &store, options: options)
        }
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, of data: Data, handle: TurboJPEGHandle,
                               store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw WebImageError.badImageData(.empty)
        }
        let size = UInt(raw.count)
        let frame = try JPEGFrameHeader(raw, handle: handle)
        let markers = frame.markers, source = frame.size, isCMYK = frame.isCMYK
        try options.checkPixelCount(width: source.width, height: source.height)

        let scaling = JPEGScaling(source: source, target: options.targetSize(forSource: source))
        let output = scaling.scaledSize(source)
        let format = isCMYK ? TJPF_CMYK : TJPF_RGBA
        let profile = markers.iccProfile
        let isLarge = output.width * output.height >= JPEGBandedDecoding.minimumPixelCount
        if !isCMYK, isLarge,
           case .convert(let conversion) = ColorManagement.plan(profile: profile, format: .rgba8, options: options),
           let pixels = try JPEGBandedDecoding.decode(raw, scaling: scaling, conversion: conversion, store: &store) {
            let image = Image(frames: [ImageFrame(pixels: pixels)], orientation: markers.orientation, format: .jpeg,
                              hasAlpha: false)
            return options.finish(image, sourceSize: source)
        }
        if WorkCancellation.current != nil, isLarge {
            // TurboJPEG has no progress hook: under a cancellation scope a large decode goes through libjpeg with
            // the shim's progress monitor instead, which uses the same IDCT and upsampling (the same pixels):
            // a single-scan file band by band into the store, any other as the progressive decoder's final image.
            var color = ColorManagement.Outcome.none
            if !isCMYK, let pixels = try JPEGBandedDecoding.decode(raw, scaling: scaling, conversion: nil, store: &store,
                                                                   finish: { out in
                color = JPEGColor(markers: markers, isCMYK: false)
                    .manage(out, pixelCount: output.width * output.height, options: options)
            }) {
                let image = Image(frames: [ImageFrame(pixels: pixels)], orientation: markers.orientation, format: .jpeg,
                                  hasAlpha: false, iccProfile: color.iccProfile, colorProfileIssue: color.issue)
                return options.finish(image, sourceSize: source)
            }
            guard let image = try JPEGProgressiveDecoder(options: options).decode(data, isFinished: true) else {
                throw JPEGErrors.corrupt("libjpeg did not reach the end of the image")
            }
            return image
        }
        var color = ColorManagement.Outcome.none
        let pixels = try store.fill(width: output.width, height: output.height) { out in
            guard let destination = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            let status = tjDecompress2(handle.raw, base, size, destination, Int32(output.width), 0,
                                       Int32(output.height), Int32(format.rawValue), TJFLAG_LIMITSCANS)
            if status != 0 {
                let message = handle.message
                if JPEGErrors.isTruncation(message) || (markers.endsBeforeScan && !JPEGErrors.isWarning(message)) {
                    throw WebImageError.badImageData(.truncated)
                }
                // Other warnings (e.g. extraneous bytes before a marker) leave a complete image.
                if !JPEGErrors.isWarning(message) { throw JPEGErrors.corrupt(message) }
            }
            color = JPEGColor(markers: markers, isCMYK: isCMYK)
                .manage(out, pixelCount: output.width * output.height, options: options)
        }
        let image = Image(frames: [ImageFrame(pixels: pixels)], orientation: markers.orientation, format: .jpeg,
                          hasAlpha: false, iccProfile: color.iccProfile, colorProfileIssue: color.issue)
        return options.finish(image, sourceSize: source)
    }
}
