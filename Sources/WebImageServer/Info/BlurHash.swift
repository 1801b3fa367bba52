import Foundation
import WebImage

/// BlurHash (blurha.sh), the reference encoder's algorithm: each component the mean of the linear-light pixels
/// times two cosines, the DC as sRGB in 4 base-83 digits, the AC quantised against their largest magnitude.
enum BlurHash {
    static let maxComponents = 9
    /// The image is fitted into this square first: the work is components × pixels.
    static let maxSide = 100

    /// The hash of a straight RGBA8 raster (alpha ignored, as the reference reads RGB).
    static func encode(_ pixels: PixelBuffer, x xComponents: Int, y yComponents: Int) -> String {
        let pixels = InfoRaster.fitted(pixels, into: maxSide)
        let width = pixels.width, height = pixels.height
        let linear = (0...255).map { sRGBToLinear(Double($0) / 255) }
        let rgb: [Double] = pixels.withUnsafeBytes { raw in
            var values = [Double](repeating: 0, count: width * height * 3)
            for index in 0..<(width * height) {
                for channel in 0..<3 { values[index * 3 + channel] = linear[Int(raw[index * 4 + channel])] }
            }
            return values
        }
        var factors: [(Double, Double, Double)] = []
        for j in 0..<yComponents {
            for i in 0..<xComponents {
                let normalisation = i == 0 && j == 0 ? 1.0 : 2.0
                let cosX = (0..<width).map { cos(Double.pi * Double(i) * Double($0) / Double(width)) }
                var r = 0.0, g = 0.0, b = 0.0
                for y in 0..<height {
                    let cosY = cos(Double.pi * Double(j) * Double(y) / Double(height))
                    for x in 0..<width {
                        let basis = cosX[x] * cosY, at = (y * width + x) * 3
                        r += basis * rgb[at]
                        g += basis * rgb[at + 1]
                        b += basis * rgb[at + 2]
                    }
                }
                let scale = normalisation / Double(width * height)
                factors.append((r * scale, g * scale, b * scale))
            }
        }
        var hash = base83((xComponents - 1) + (yComponents - 1) * 9, digits: 1)
        let ac = factors.dropFirst()
        var maximum = 1.0
        if ac.isEmpty {
            hash += base83(0, digits: 1)
        } else {
            let actual = ac.map { max(abs($0.0), abs($0.1), abs($0.2)) }.max() ?? 0
            let quantised = Int(max(0, min(82, (actual * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += base83(quantised, digits: 1)
        }
        let dc = factors[0]
        hash += base83(linearToSRGB(dc.0) << 16 | linearToSRGB(dc.1) << 8 | linearToSRGB(dc.2), digits: 4)
        for factor in ac {
            func quantise(_ value: Double) -> Int {
                Int(max(0, min(18, (signedPow(value / maximum, 0.5) * 9 + 9.5).rounded(.down))))
            }
            hash += base83(quantise(factor.0) * 361 + quantise(factor.1) * 19 + quantise(factor.2), digits: 2)
        }
        return hash
    }

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    private static func base83(_ value: Int, digits: Int) -> String {
        String((1...digits).map { alphabet[(value / Int(pow(83, Double(digits - $0)))) % 83] })
    }

    private static func sRGBToLinear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    private static func linearToSRGB(_ value: Double) -> Int {
        let v = max(0, min(1, value))
        return v <= 0.0031308 ? Int(v * 12.92 * 255 + 0.5) : Int((1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
    }

    private static func signedPow(_ value: Double, _ exponent: Double) -> Double {
        value < 0 ? -pow(-value, exponent) : pow(value, exponent)
    }
}

/// What the pixel options share: the raster fitted into a square, keeping its aspect ratio.
enum InfoRaster {
    static func fitted(_ pixels: PixelBuffer, into side: Int) -> PixelBuffer {
        let longest = max(pixels.width, pixels.height)
        guard longest > side else { return pixels }
        let scale = Double(side) / Double(longest)
        return Resampler.resample(pixels, to: PixelSize(width: max(1, Int((Double(pixels.width) * scale).rounded())),
                                                        height: max(1, Int((Double(pixels.height) * scale).rounded()))))
    }
}
