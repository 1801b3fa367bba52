import Foundation
import WebImage
import WebImageServer

/// Our side of the smart-gravity comparison with pyvips (`Benchmarks/SmartCrop/compare.py`, which decodes the
/// photos and runs pyvips): `webimage-benchmarks --smartcrop CASES`, where each line of the tab-separated file
/// CASES is `raw-RGBA8-path width height box-width box-height`. Prints, per case, `x y` (our crop's origin),
/// then the best seconds of 5 runs of the smart crop (origin and the crop itself) and of a centre crop.
enum SmartCropProbe {
    static func run(casesPath: String) throws {
        let lines = try String(contentsOfFile: casesPath, encoding: .utf8).split(separator: "\n")
        var loaded: (path: String, pixels: PixelBuffer)?
        for line in lines {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 5, let width = Int(fields[1]), let height = Int(fields[2]),
                  let boxWidth = Int(fields[3]), let boxHeight = Int(fields[4]) else {
                throw SmartCropProbeError.badCase(String(line))
            }
            if loaded?.path != fields[0] {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fields[0])))
                loaded = (fields[0], PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes))
            }
            guard let pixels = loaded?.pixels else { continue }
            let box = PixelSize(width: boxWidth, height: boxHeight)
            let origin = AttentionCrop.origin(of: box, in: pixels)
            let smart = Measure.best {
                let at = AttentionCrop.origin(of: box, in: pixels)
                _ = pixels.cropped(to: PixelRect(x: at.x, y: at.y, width: box.width, height: box.height))
            }
            let centre = Measure.best {
                _ = pixels.cropped(to: PixelRect(x: (width - box.width) / 2, y: (height - box.height) / 2,
                                                 width: box.width, height: box.height))
            }
            print(origin.x, origin.y, smart, centre, separator: "\t")
        }
    }
}

enum SmartCropProbeError: Error {
    case badCase(String)
}
