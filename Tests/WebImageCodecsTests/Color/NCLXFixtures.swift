import CHEIF
import Foundation
import TestSupport
import WebImage

/// AVIF and HEIF files carrying `nclx` colour, made at test time: AVIF with Debian's `avifenc --cicp`, HEIF
/// through libheif's C API (1.15's `heif-enc` leaves the `nclx` box out for old macOS). Both lossless, 4:4:4
/// with the identity matrix, so the decoded samples are the ones written (rescaled at 10 and 12 bits).
enum NCLXFixtures {
    struct ToolFailure: Error {
        let tool: String
        let status: Int32
    }

    /// `avifenc --lossless --cicp P/T/0 [--depth D]` on a PNG of `pixels` (with `iccProfile` as iCCP if given).
    static func avif(_ pixels: PixelBuffer, primaries: Int, transfer: Int, depth: Int = 8,
                     iccProfile: Data? = nil) throws -> Data {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nclx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("in.png"), avif = directory.appendingPathComponent("out.avif")
        try PNGCoder().encode(Image(frames: [ImageFrame(pixels: pixels)], iccProfile: iccProfile), as: .png,
                              options: .init()).write(to: png)
        let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/avifenc"),
                                         ["--lossless", "--cicp", "\(primaries)/\(transfer)/0", "--depth", "\(depth)",
                                          png.path, avif.path])
        process.waitUntilExit()
        guard process.termination == .exited(0) else {
            throw ToolFailure(tool: "avifenc", status: process.terminationStatus)
        }
        return try Data(contentsOf: avif)
    }

    /// A lossless HEIC of `pixels` (8-bit RGBA; at `depth` 10 or 12 each sample is rescaled to that many bits)
    /// with an `nclx` box of the given code points, and a `prof` box too when `iccProfile` is given.
    static func heif(_ pixels: PixelBuffer, primaries: Int, transfer: Int, depth: Int = 8,
                     iccProfile: Data? = nil) throws -> Data {
        let context = heif_context_alloc()
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossless(encoder, 1))
        try check(heif_encoder_set_parameter_string(encoder, "chroma", "444"))
        let image = try makeImage(pixels, depth: depth)
        defer { heif_image_release(image) }
        let nclx = heif_nclx_color_profile_alloc()
        defer { heif_nclx_color_profile_free(nclx) }
        try check(heif_nclx_color_profile_set_color_primaries(nclx, UInt16(primaries)))
        try check(heif_nclx_color_profile_set_transfer_characteristics(nclx, UInt16(transfer)))
        try check(heif_nclx_color_profile_set_matrix_coefficients(nclx, 0))
        nclx?.pointee.full_range_flag = 1
        try check(heif_image_set_nclx_color_profile(image, nclx))
        if let iccProfile {
            try check(iccProfile.withUnsafeBytes {
                heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count)
            })
        }
        let options = heif_encoding_options_alloc()
        defer { heif_encoding_options_free(options) }
        options?.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
        options?.pointee.save_two_colr_boxes_when_ICC_and_nclx_available = 1
        try check(heif_context_encode_image(context, image, encoder, options, nil))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nclx-\(UUID().uuidString).heic")
        defer { try? FileManager.default.removeItem(at: file) }
        try check(heif_context_write_to_file(context, file.path))
        return try Data(contentsOf: file)
    }

    private static func makeImage(_ pixels: PixelBuffer, depth: Int) throws -> OpaquePointer {
        var image: OpaquePointer?
        let wide = depth > 8
        try check(heif_image_create(Int32(pixels.width), Int32(pixels.height), heif_colorspace_RGB,
                                    wide ? heif_chroma_interleaved_RRGGBB_LE : heif_chroma_interleaved_RGB, &image))
        guard let image else { throw ToolFailure(tool: "heif_image_create", status: -1) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(pixels.width), Int32(pixels.height),
                                       Int32(depth)))
        var stride: Int32 = 0
        let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride)!
        let maximum = (1 << depth) - 1
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let rgba = pixels.rgba8(x: x, y: y)
                for channel in 0..<3 {
                    if wide {
                        let value = UInt16((Int(rgba[channel]) * maximum + 127) / 255)
                        let at = y * Int(stride) + (x * 3 + channel) * 2
                        plane[at] = UInt8(value & 0xFF)
                        plane[at + 1] = UInt8(value >> 8)
                    } else {
                        plane[y * Int(stride) + x * 3 + channel] = rgba[channel]
                    }
                }
            }
        }
        return image
    }

    private static func check(_ error: heif_error) throws {
        guard error.code == heif_error_Ok else {
            throw ToolFailure(tool: "libheif", status: Int32(error.code.rawValue))
        }
    }
}
