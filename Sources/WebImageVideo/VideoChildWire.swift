import Foundation
import Spawning
import WebImageCore

/// What a process and its video child say to each other: one request on the child's standard input, one reply on
/// its standard output.
///
/// Request: the magic, a UInt32 length and the ``Request`` as JSON, a UInt64 length and the video. Reply: 0, a
/// UInt32 length and the answer as JSON (a ``VideoProbe``, or a ``FrameAnswer`` followed by a UInt64 length and
/// that many RGBA8 bytes, a `.frames` answer's frames one after another); or 1, a UInt32 length and the
/// failure's message in UTF-8. Integers little-endian.
enum VideoChildWire {
    static let magic = Array("webimage-video-1\n".utf8)
    /// The most JSON either side accepts, and a failure's message is cut to 1 KiB.
    static let maxJSONBytes = 1 << 20
    static let maxMessageBytes = 1024

    struct Request: Codable, Equatable {
        enum Kind: String, Codable { case probe, frame, frames }
        var kind: Kind
        var limits: VideoLimits
        /// The child's `RLIMIT_DATA` and `RLIMIT_CPU`.
        var memoryBytes: Int
        var cpuSeconds: Int
        var second: Double = 1
        var keyframes = false
        var maxPixelCount = Int.max
        var thumbnailPixelSize: PixelSize?
        var preserveAspectRatio = true
        var applyOrientation = false
        /// The frames a `.frames` request reads.
        var schedule: VideoFrameSchedule?
    }

    /// The raster size of a frame (of each, for `.frames`), the orientation the image reports, and how many
    /// frames follow.
    struct FrameAnswer: Codable, Equatable {
        var width: Int
        var height: Int
        var orientation: ImageOrientation
        var isThumbnail: Bool
        var count = 1
    }

    static func request(_ request: Request, length: Int) throws -> [UInt8] {
        let json = try JSONEncoder().encode(request)
        var bytes = magic
        bytes.append(le: UInt32(json.count))
        bytes += json
        bytes.append(le: UInt64(length))
        return bytes
    }

    static func answer(_ value: some Encodable) throws -> [UInt8] {
        let json = try JSONEncoder().encode(value)
        var bytes: [UInt8] = [0]
        bytes.append(le: UInt32(json.count))
        return bytes + json
    }

    static func failure(_ message: String) -> [UInt8] {
        let text = Array(message.utf8.prefix(maxMessageBytes))
        var bytes: [UInt8] = [1]
        bytes.append(le: UInt32(text.count))
        return bytes + text
    }
}

extension VideoChildWire.Request {
    /// The request's decode options and frame, as the coder reads them.
    var decodeOptions: ImageDecodeOptions {
        var options = ImageDecodeOptions(thumbnailPixelSize: thumbnailPixelSize, preserveAspectRatio: preserveAspectRatio,
                                         applyOrientation: applyOrientation, maxPixelCount: maxPixelCount)
        options.coderOptions[VideoThumbnailSecond.self] = second
        options.coderOptions[VideoThumbnailKeyframes.self] = keyframes
        return options
    }

    /// A request of `kind` carrying `options`' size, orientation, pixel limit and frame.
    init(_ kind: Kind, limits: VideoLimits, memoryBytes: Int, cpuSeconds: Int, options: ImageDecodeOptions,
         schedule: VideoFrameSchedule? = nil) {
        self.init(kind: kind, limits: limits, memoryBytes: memoryBytes, cpuSeconds: cpuSeconds,
                  second: options.coderOptions[VideoThumbnailSecond.self],
                  keyframes: options.coderOptions[VideoThumbnailKeyframes.self], maxPixelCount: options.maxPixelCount,
                  thumbnailPixelSize: options.thumbnailPixelSize, preserveAspectRatio: options.preserveAspectRatio,
                  applyOrientation: options.applyOrientation, schedule: schedule)
    }
}
