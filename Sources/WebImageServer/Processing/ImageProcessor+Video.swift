import Foundation
import WebImage
import WebImageVideo

/// imgproxy Pro's sprite sheets (`video_thumbnail_tile`) and animations (`video_thumbnail_animation`) of a video:
/// the frames read in the video child at the size each cell needs, upright, laid out here, and the whole then
/// processed as the source image.
extension ImageProcessor {
    /// The sprite sheet or animation the URL asks of a video source; nil when it asks neither. Its size is checked
    /// against the source limits before any frame is read.
    func videoComposite(_ source: SourceBytes, header: ImageHeader,
                        options: ProcessingOptions) throws(ProxyError) -> Image? {
        guard header.format.isVideo, options.videoTile != nil || options.videoAnimation != nil,
              let coder = coders.videoCoder else { return nil }
        let layout = options.videoTile?.layout ?? options.videoAnimation!.layout
        let count = options.videoTile.map { $0.columns * $0.rows } ?? options.videoAnimation!.frames
        let geometry = VideoCellGeometry(frame: header.displayedSize, layout: layout)
        let planned = options.videoTile.map { Self.sheetSize(cell: geometry.cell, columns: $0.columns, rows: $0.rows) }
            ?? geometry.cell
        try checkSource(source, header: ImageHeader(format: header.format, pixelSize: planned, hasAlpha: true),
                        frames: options.videoTile == nil ? count : 1, options: options)
        let target = header.orientation.swapsDimensions
            ? PixelSize(width: geometry.resized.height, height: geometry.resized.width) : geometry.resized
        var decoding = ImageDecodeOptions(thumbnailPixelSize: target, preserveAspectRatio: false, applyOrientation: true,
                                          maxPixelCount: maxSourcePixels)
        decoding.coderOptions[VideoThumbnailKeyframes.self] = options.videoThumbnailKeyframes
        let schedule = VideoFrameSchedule(start: options.videoThumbnailSecond,
                                          step: options.videoTile?.step ?? options.videoAnimation!.step, count: count,
                                          autoKeyframes: videoTileAutoKeyframes)
        let frames: [PixelBuffer]
        do {
            frames = try coder.frames(source.data, schedule: schedule, options: decoding).frames.map(geometry.cellPixels)
        } catch let error as WebImageError {
            throw .unprocessable(error.description)
        } catch {
            throw .unprocessable("the video's frames cannot be read: \(error)")
        }
        if let tile = options.videoTile {
            let sheet = Self.sheet(frames, cell: geometry.cell, columns: tile.columns, rows: tile.rows, trim: layout.trim)
            return Image(frames: [ImageFrame(pixels: sheet)], format: header.format,
                         hasAlpha: frames.count < count && !layout.trim)
        }
        let animation = options.videoAnimation!
        // Untrimmed, an animation past the video's end repeats its last frame.
        let all = layout.trim ? frames : frames + Array(repeating: frames[frames.count - 1], count: count - frames.count)
        return Image(frames: all.map { ImageFrame(pixels: $0, duration: Double(animation.delay) / 1000) },
                     format: header.format, hasAlpha: false)
    }

    /// A sheet of `columns × rows` cells.
    static func sheetSize(cell: PixelSize, columns: Int, rows: Int) -> PixelSize {
        PixelSize(width: cell.width * columns, height: cell.height * rows)
    }

    /// `frames` in rows of `columns` cells, left to right and top to bottom; the cells the video's end leaves
    /// unused stay transparent, or with `trim` are cut off (a single row as wide as its frames).
    static func sheet(_ frames: [PixelBuffer], cell: PixelSize, columns: Int, rows: Int, trim: Bool) -> PixelBuffer {
        let used = trim ? (frames.count < columns ? (frames.count, 1) : (columns, (frames.count + columns - 1) / columns))
                        : (columns, rows)
        let size = sheetSize(cell: cell, columns: used.0, rows: used.1)
        var sheet = PixelBuffer(width: size.width, height: size.height)
        sheet.withUnsafeMutableBytes { canvas in
            for (index, frame) in frames.enumerated() {
                let left = index % columns * cell.width, top = index / columns * cell.height
                frame.withUnsafeBytes { source in
                    for row in 0..<frame.height {
                        let from = row * frame.bytesPerRow, to = ((top + row) * size.width + left) * 4
                        canvas[to ..< to + frame.bytesPerRow].copyBytes(from: source[from ..< from + frame.bytesPerRow])
                    }
                }
            }
        }
        return sheet
    }
}

/// How a video frame becomes a cell of a sprite sheet or an animation frame: the size it is read at (fitted into
/// the box, or covering it with `fill`), then cropped around the focus (`fill`) and centred on black (`extend`).
struct VideoCellGeometry {
    let layout: ProcessingOptions.VideoFrameLayout
    /// The upright size the child resizes each frame to.
    let resized: PixelSize
    /// Each cell's size.
    let cell: PixelSize
    private let box: PixelSize

    init(frame: PixelSize, layout: ProcessingOptions.VideoFrameLayout) {
        self.layout = layout
        let width = Double(max(1, frame.width)), height = Double(max(1, frame.height))
        let byWidth = layout.width > 0 ? Double(layout.width) / width : nil
        let byHeight = layout.height > 0 ? Double(layout.height) / height : nil
        let scale: Double
        switch (byWidth, byHeight) {
        case let (x?, y?): scale = layout.fill ? max(x, y) : min(x, y)
        case let (x?, nil): scale = x
        case let (nil, y?): scale = y
        case (nil, nil): scale = 1
        }
        // Never enlarged, as imgproxy's resizes are not by default.
        let applied = min(1, scale)
        resized = PixelSize(width: max(1, Int((width * applied).rounded())), height: max(1, Int((height * applied).rounded())))
        box = PixelSize(width: layout.width > 0 ? layout.width : resized.width,
                        height: layout.height > 0 ? layout.height : resized.height)
        let cropped = layout.fill ? PixelSize(width: min(resized.width, box.width), height: min(resized.height, box.height))
                                  : resized
        cell = layout.extend ? box : cropped
    }

    /// `frame` (at ``resized``) cropped and extended into its cell.
    func cellPixels(_ frame: PixelBuffer) -> PixelBuffer {
        var pixels = frame
        if layout.fill, pixels.width > box.width || pixels.height > box.height {
            let width = min(pixels.width, box.width), height = min(pixels.height, box.height)
            let x = Int((Double(pixels.width) * layout.focusX - Double(width) / 2).rounded())
            let y = Int((Double(pixels.height) * layout.focusY - Double(height) / 2).rounded())
            pixels = pixels.cropped(to: PixelRect(x: min(max(0, x), pixels.width - width),
                                                  y: min(max(0, y), pixels.height - height), width: width, height: height))
        }
        guard layout.extend, pixels.size != cell else { return pixels }
        return pixels.embedded(in: cell, at: ((cell.width - pixels.width) / 2, (cell.height - pixels.height) / 2))
            .flattened(onto: RGBAColor(red: 0, green: 0, blue: 0))
    }
}
