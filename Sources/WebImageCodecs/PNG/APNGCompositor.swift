import WebImageCore

/// Paints APNG frames onto the canvas in order: each frame is blended into its region, and its disposal is
/// applied just before the next frame is drawn.
struct APNGCompositor {
    /// The canvas as it is after the last rendered frame.
    private(set) var canvas: PixelBuffer
    private var pendingDispose: (control: APNGFrameControl, saved: PixelBuffer?)?

    /// A transparent canvas of `size` in `format`.
    init(size: PixelSize, format: PixelFormat) {
        canvas = PixelBuffer(width: size.width, height: size.height, format: format)
    }

    /// Draws `frame` (already decoded at the control's size, in the canvas's format) and returns the
    /// composited canvas. The returned buffer shares storage with the canvas until the next frame changes it.
    mutating func render(_ frame: PixelBuffer, control: APNGFrameControl) -> PixelBuffer {
        if let pending = pendingDispose {
            switch pending.control.dispose {
            case .none: break
            case .background: clear(pending.control)
            case .previous: if let saved = pending.saved { copy(saved, into: pending.control) }
            }
        }
        let saved = control.dispose == .previous ? region(control) : nil
        switch control.blend {
        case .source: copy(frame, into: control)
        case .over: blendOver(frame, into: control)
        }
        pendingDispose = (control, saved)
        return canvas
    }

    private var bytesPerPixel: Int { canvas.format.bytesPerPixel }

    /// A copy of the canvas pixels under `control`'s region.
    private func region(_ control: APNGFrameControl) -> PixelBuffer {
        let rowBytes = control.width * bytesPerPixel, canvasRowBytes = canvas.bytesPerRow
        return canvas.withUnsafeBytes { source in
            PixelBuffer(width: control.width, height: control.height, format: canvas.format) { out in
                for row in 0..<control.height {
                    let from = (control.y + row) * canvasRowBytes + control.x * bytesPerPixel
                    UnsafeMutableRawBufferPointer(rebasing: out[row * rowBytes ..< (row + 1) * rowBytes])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from ..< from + rowBytes]))
                }
            }
        }
    }

    /// Replaces `control`'s region with `pixels` (of the region's size).
    private mutating func copy(_ pixels: PixelBuffer, into control: APNGFrameControl) {
        let rowBytes = control.width * bytesPerPixel, canvasRowBytes = canvas.bytesPerRow, x = control.x * bytesPerPixel
        pixels.withUnsafeBytes { source in
            canvas.withUnsafeMutableBytes { out in
                for row in 0..<control.height {
                    let to = (control.y + row) * canvasRowBytes + x
                    UnsafeMutableRawBufferPointer(rebasing: out[to ..< to + rowBytes])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[row * rowBytes ..< (row + 1) * rowBytes]))
                }
            }
        }
    }

    /// Clears `control`'s region to transparent black.
    private mutating func clear(_ control: APNGFrameControl) {
        let rowBytes = control.width * bytesPerPixel, canvasRowBytes = canvas.bytesPerRow, x = control.x * bytesPerPixel
        canvas.withUnsafeMutableBytes { out in
            for row in 0..<control.height {
                let to = (control.y + row) * canvasRowBytes + x
                UnsafeMutableRawBufferPointer(rebasing: out[to ..< to + rowBytes]).initializeMemory(as: UInt8.self, repeating: 0)
            }
        }
    }

    /// Alpha-composites `pixels` over `control`'s region (straight alpha in and out).
    private mutating func blendOver(_ pixels: PixelBuffer, into control: APNGFrameControl) {
        let canvasWidth = canvas.width, format = canvas.format
        pixels.withUnsafeBytes { source in
            canvas.withUnsafeMutableBytes { out in
                switch format {
                case .rgba8:
                    Self.blendOver(source.bindMemory(to: UInt8.self), into: out.bindMemory(to: UInt8.self),
                                   control: control, canvasWidth: canvasWidth)
                case .rgba16:
                    Self.blendOver(source.bindMemory(to: UInt16.self), into: out.bindMemory(to: UInt16.self),
                                   control: control, canvasWidth: canvasWidth)
                }
            }
        }
    }

    private static func blendOver<Sample: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafeBufferPointer<Sample>, into canvas: UnsafeMutableBufferPointer<Sample>,
        control: APNGFrameControl, canvasWidth: Int
    ) {
        let maximum = UInt64(Sample.max)
        for row in 0..<control.height {
            var s = row * control.width * 4
            var d = ((control.y + row) * canvasWidth + control.x) * 4
            for _ in 0..<control.width {
                defer { s += 4; d += 4 }
                let sourceAlpha = UInt64(source[s + 3])
                if sourceAlpha == 0 { continue }
                if sourceAlpha == maximum {
                    for c in 0..<4 { canvas[d + c] = source[s + c] }
                    continue
                }
                // out·α = src·αs + dst·αd·(1 − αs), everything scaled by the maximum sample value.
                let destinationWeight = UInt64(canvas[d + 3]) * (maximum - sourceAlpha)
                let alpha = sourceAlpha * maximum + destinationWeight
                for c in 0..<3 {
                    let value = UInt64(source[s + c]) * sourceAlpha * maximum + UInt64(canvas[d + c]) * destinationWeight
                    canvas[d + c] = Sample((value + alpha / 2) / alpha)
                }
                canvas[d + 3] = Sample((alpha + maximum / 2) / maximum)
            }
        }
    }
}
