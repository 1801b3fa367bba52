import Foundation
import WebImage

/// Where imgproxy's smart gravity (`g:sm`) puts a crop: libvips' `smartcrop` with the `attention` strategy,
/// rebuilt here so that our crops land where imgproxy's do.
///
/// The image is reduced to a 32×32 grid (a box shrink, then Lanczos 3, as `vips_resize` does it); each cell
/// scores its edges (Laplacian of luminance), skin tone and redness (CIELAB a*), the scores are blurred over
/// about a tenth of the box's extent, and the crop is centred on the top-left corner of the best cell (libvips
/// maps the cell back that way, so a crop sits up to one cell left of and above the feature's centre). The
/// grid's coarseness is libvips' too: it places the crop to within a 32nd of the image on each axis.
///
/// `package` rather than internal only so that the benchmark executable can compare it with pyvips.
package enum AttentionCrop {
    /// The side of the square grid the image is scored on (libvips' `smartcrop`).
    static let gridSide = 32

    /// The top-left corner of a `box`-sized crop of `pixels`, inside the image on both axes: 0 on an axis the
    /// box covers (or exceeds), otherwise `0…size − box`. Deterministic; a flat image gives (0, 0), as libvips.
    package static func origin(of box: PixelSize, in pixels: PixelBuffer) -> (x: Int, y: Int) {
        let room = (x: max(0, pixels.width - box.width), y: max(0, pixels.height - box.height))
        guard room.x > 0 || room.y > 0 else { return (0, 0) }
        let scale = (x: Double(gridSide) / Double(pixels.width), y: Double(gridSide) / Double(pixels.height))
        let colours = ColourGrid.reduced(pixels, toSide: gridSide)
        // The blur spans a tenth of the box's diagonal in grid cells, so a larger box weighs a wider area.
        let spread = (pow(Double(box.width) * scale.x, 2) + pow(Double(box.height) * scale.y, 2)).squareRoot()
        let scores = AttentionScore.interest(of: colours).blurred(sigma: max(spread / 10, 1))
        let best = scores.firstMaximum()
        let centre = (x: Int(Double(best.x) / scale.x), y: Int(Double(best.y) / scale.y))
        return (min(max(0, centre.x - box.width / 2), room.x), min(max(0, centre.y - box.height / 2), room.y))
    }
}
