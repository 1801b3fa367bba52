import CAVIF
import WebImageCore

/// The displayed geometry of an AVIF image: the `clap` crop, then the `irot` rotation, then the `imir` mirror
/// (the order MIAF prescribes), read from the container.
///
/// libavif 0.11 only reports these properties; its output, like `avifdec`'s, is the coded image. We apply them
/// once, here, so a decoded AVIF is upright with orientation `.up`. `irot` and `imir` together are one of the
/// eight EXIF orientations, applied with ``PixelBuffer/applying(_:)``. An EXIF orientation in the file is not
/// applied: in HEIF files `irot`/`imir` are the normative transforms and writers that also set the EXIF tag
/// (phones) repeat the same rotation there.
struct AVIFGeometry {
    /// The clean aperture in coded pixels, nil when the whole image is shown.
    let crop: PixelRect?
    /// The rotation and mirror as an EXIF orientation (`.up` for none).
    let orientation: ImageOrientation
    /// The size after crop and orientation.
    let displaySize: PixelSize

    init(_ image: avifImage, codedSize: PixelSize) throws {
        let flags = image.transformFlags
        let crop = flags & AVIF_TRANSFORM_CLAP.rawValue != 0 ? try Self.cropRect(image.clap, codedSize: codedSize) : nil
        let angle = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle & 3) : 0
        let mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode & 1) : nil
        self.crop = crop
        orientation = Self.orientation(angle: angle, mirror: mirror)
        let cropped = crop.map { PixelSize(width: $0.width, height: $0.height) } ?? codedSize
        displaySize = orientation.swapsDimensions ? PixelSize(width: cropped.height, height: cropped.width) : cropped
    }

    /// `pixels` (the coded raster) cropped and turned upright; `pixels` itself when there is nothing to do.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        var result = pixels
        if let crop { result = pixels.cropped(to: crop) }
        return result.applying(orientation)
    }

    /// The EXIF orientation that shows the result of rotating by `angle` × 90° anticlockwise and then mirroring
    /// (`0`: top and bottom swapped, `1`: left and right swapped).
    static func orientation(angle: Int, mirror: Int?) -> ImageOrientation {
        switch (angle, mirror) {
        case (0, nil): .up
        case (1, nil): .left
        case (2, nil): .down
        case (3, nil): .right
        case (0, 1), (2, 0): .upMirrored
        case (0, 0), (2, 1): .downMirrored
        case (1, 0), (3, 1): .leftMirrored
        default: .rightMirrored  // (1, 1), (3, 0)
        }
    }

    /// The `irot` angle (× 90° anticlockwise) and `imir` mode that display pixels stored for `orientation`
    /// upright: the inverse of ``orientation(angle:mirror:)``.
    static func transforms(for orientation: ImageOrientation) -> (angle: Int, mirror: Int?) {
        switch orientation {
        case .up: (0, nil)
        case .left: (1, nil)
        case .down: (2, nil)
        case .right: (3, nil)
        case .upMirrored: (0, 1)
        case .downMirrored: (0, 0)
        case .leftMirrored: (1, 0)
        case .rightMirrored: (1, 1)
        }
    }

    /// The crop rectangle `clap` describes: centred on the image centre plus the offsets, in whole pixels
    /// (ISO/IEC 14496-12 12.1.4). A rectangle that is fractional or leaves the image is corrupt data.
    private static func cropRect(_ clap: avifCleanApertureBox,
                                 codedSize: PixelSize) throws -> PixelRect {
        func invalid(_ why: String) -> WebImageError { .badImageData(.corrupt("AVIF: invalid clap: \(why)")) }
        let widthN = Int(Int32(bitPattern: clap.widthN)), widthD = Int(Int32(bitPattern: clap.widthD))
        let heightN = Int(Int32(bitPattern: clap.heightN)), heightD = Int(Int32(bitPattern: clap.heightD))
        let offXN = Int(Int32(bitPattern: clap.horizOffN)), offXD = Int(Int32(bitPattern: clap.horizOffD))
        let offYN = Int(Int32(bitPattern: clap.vertOffN)), offYD = Int(Int32(bitPattern: clap.vertOffD))
        guard widthD > 0, heightD > 0, offXD > 0, offYD > 0 else { throw invalid("a denominator is not positive") }
        guard widthN > 0, heightN > 0, widthN % widthD == 0, heightN % heightD == 0 else {
            throw invalid("the size is not a positive whole number")
        }
        let width = widthN / widthD, height = heightN / heightD
        // Left edge = (coded - clean) / 2 + offset, as one fraction over 2 × offXD.
        func edge(coded: Int, clean: Int, offN: Int, offD: Int) throws -> Int {
            let numerator = (coded - clean) * offD + 2 * offN, denominator = 2 * offD
            guard numerator % denominator == 0 else { throw invalid("the offset is not a whole pixel") }
            return numerator / denominator
        }
        let x = try edge(coded: codedSize.width, clean: width, offN: offXN, offD: offXD)
        let y = try edge(coded: codedSize.height, clean: height, offN: offYN, offD: offYD)
        guard x >= 0, y >= 0, x + width <= codedSize.width, y + height <= codedSize.height else {
            throw invalid("\(width)x\(height)@\(x),\(y) lies outside the \(codedSize.width)x\(codedSize.height) image")
        }
        return PixelRect(x: x, y: y, width: width, height: height)
    }
}
