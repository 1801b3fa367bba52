import Foundation
import WebImage

/// ThumbHash, Evan Wallace's reference algorithm (`rgbaToThumbHash`): the image composited over its average
/// colour, turned into luminance, two chroma channels and alpha, each encoded by a DCT into a DC and normalised
/// AC terms of 4 bits. Answered as upper-case hex, as imgproxy Pro's example shows.
enum ThumbHash {
    /// The reference encoder takes at most 100 × 100 pixels: larger images are fitted first.
    static let maxSide = 100

    static func encode(_ pixels: PixelBuffer) -> String {
        let pixels = InfoRaster.fitted(pixels, into: maxSide)
        let w = pixels.width, h = pixels.height, count = w * h
        let rgba: [Double] = pixels.withUnsafeBytes { raw in (0..<(count * 4)).map { Double(raw[$0]) } }
        var avgR = 0.0, avgG = 0.0, avgB = 0.0, avgA = 0.0
        for i in 0..<count {
            let alpha = rgba[i * 4 + 3] / 255
            avgR += alpha / 255 * rgba[i * 4]
            avgG += alpha / 255 * rgba[i * 4 + 1]
            avgB += alpha / 255 * rgba[i * 4 + 2]
            avgA += alpha
        }
        if avgA > 0 { (avgR, avgG, avgB) = (avgR / avgA, avgG / avgA, avgB / avgA) }
        let hasAlpha = avgA < Double(count)
        let limit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(w, h))
        let lx = max(1, round(limit * Double(w) / longest)), ly = max(1, round(limit * Double(h) / longest))
        var l = [Double](repeating: 0, count: count), p = l, q = l, a = l
        for i in 0..<count {
            let alpha = rgba[i * 4 + 3] / 255
            let r = avgR * (1 - alpha) + alpha / 255 * rgba[i * 4]
            let g = avgG * (1 - alpha) + alpha / 255 * rgba[i * 4 + 1]
            let b = avgB * (1 - alpha) + alpha / 255 * rgba[i * 4 + 2]
            (l[i], p[i], q[i], a[i]) = ((r + g + b) / 3, (r + g) / 2 - b, r - g, alpha)
        }
        func channel(_ values: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0, ac: [Double] = [], scale = 0.0
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    let fx = (0..<w).map { cos(Double.pi / Double(w) * Double(cx) * (Double($0) + 0.5)) }
                    var f = 0.0
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += values[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(count)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
            return (dc, ac, scale)
        }
        let lChannel = channel(l, max(3, Int(lx)), max(3, Int(ly)))
        let pChannel = channel(p, 3, 3), qChannel = channel(q, 3, 3)
        let aChannel = hasAlpha ? channel(a, 5, 5) : nil
        let isLandscape = w > h
        let header24 = round(63 * lChannel.dc) | round(31.5 + 31.5 * pChannel.dc) << 6 | round(31.5 + 31.5 * qChannel.dc) << 12
            | round(31 * lChannel.scale) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 = Int(isLandscape ? ly : lx) | round(63 * pChannel.scale) << 3 | round(63 * qChannel.scale) << 9
            | (isLandscape ? 1 << 15 : 0)
        var hash = [header24 & 255, header24 >> 8 & 255, header24 >> 16, header16 & 255, header16 >> 8]
        if let aChannel { hash.append(round(15 * aChannel.dc) | round(15 * aChannel.scale) << 4) }
        let start = hash.count
        var index = 0
        for ac in [lChannel.ac, pChannel.ac, qChannel.ac] + (aChannel.map { [$0.ac] } ?? []) {
            for f in ac {
                let at = start + index >> 1
                if at == hash.count { hash.append(0) }
                hash[at] |= round(15 * f) << ((index & 1) << 2)
                index += 1
            }
        }
        return hash.map { String(format: "%02X", $0 & 255) }.joined()
    }

    /// JavaScript's `Math.round`: halves up.
    private static func round(_ value: Double) -> Int { Int((value + 0.5).rounded(.down)) }
}
