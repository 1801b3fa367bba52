import Foundation
import WebImageCore

/// Decodes one frame of a video — MP4 and MOV, WebM and Matroska, AVI — with FFmpeg's libavformat and
/// libavcodec: a poster frame, as image services make them (imgproxy Pro's video thumbnails).
///
/// The frame is the one shown at ``VideoThumbnailSecond`` (default 1 s; the last frame of a shorter video), or
/// with ``VideoThumbnailKeyframes`` the key frame at or before it. The stream's rotation is reported as the
/// image's orientation (applied with `applyOrientation`), the size is checked against `maxPixelCount` before the
/// decoder opens, and thumbnails and scale-down work as for any format. The container is read from memory only:
/// a file or URL it refers to is never opened, and only the MP4, Matroska and AVI demuxers are tried.
///
/// Video decoders are large C programs fed with whatever the file says, and a frame deep in a long stream takes
/// seconds; so the coder is not in the built-in set: add it for videos you trust, or give it a
/// ``VideoChildProcess`` and each probe and frame runs in a child process whose memory and CPU the kernel
/// bounds and which is killed at its deadline:
///
/// ```swift
/// CodersManager.shared.addCoder(VideoThumbnailCoder())
/// // or, isolated (the executable calls VideoFrameChild.run() when started with these arguments):
/// let child = VideoChildProcess(executable: URL(fileURLWithPath: "/proc/self/exe"), arguments: ["video-frame"])
/// CodersManager.shared.addCoder(VideoThumbnailCoder(childProcess: child))
/// ```
public final class VideoThumbnailCoder: ImageCoding, ImageHeaderReading {
    /// What reading a video may cost.
    public let limits: VideoLimits
    /// Where probes and frames run; nil: in the calling thread.
    public let childProcess: VideoChildProcess?

    public init(limits: VideoLimits = VideoLimits(), childProcess: VideoChildProcess? = nil) {
        self.limits = limits
        self.childProcess = childProcess
    }

    /// Whether the bytes open like an MP4, MOV, WebM, Matroska or AVI file (``ImageFormat/isVideo``).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data).isVideo
    }

    /// The video stream's size and rotation (no frame is decoded).
    public func header(_ data: Data) throws -> ImageHeader {
        try probe(data).header
    }

    /// The container's and streams' facts (`/info`'s video metadata), no frame decoded.
    public func probe(_ data: Data) throws -> VideoProbe {
        if let childProcess { return try childProcess.probe(data, limits: limits) }
        return try Self.probeHere(data, limits: limits)
    }

    /// The frame the options ask for, as straight RGBA8, finished as the options ask (thumbnail, orientation).
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        if let childProcess { return try childProcess.frame(data, limits: limits, options: options) }
        return try Self.decodeHere(data, limits: limits, options: options)
    }

    /// False: videos are read only.
    public func canEncode(to format: ImageFormat) -> Bool {
        false
    }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError.encodingFailed(format: format, reason: "VideoThumbnailCoder only decodes")
    }

    static func probeHere(_ data: Data, limits: VideoLimits) throws -> VideoProbe {
        let format = try videoFormat(data)
        return try VideoContainer.open(data, limits: limits) { VideoProbe($0, format: format) }
    }

    /// The frame `options` name (``VideoThumbnailSecond``), as ``frames(_:schedule:options:)`` reads a schedule of one.
    static func decodeHere(_ data: Data, limits: VideoLimits, options: ImageDecodeOptions) throws -> Image {
        let schedule = VideoFrameSchedule(start: options.coderOptions[VideoThumbnailSecond.self], step: 0, count: 1)
        return try finishedFrames(data, schedule: schedule, limits: limits, options: options)[0]
    }

    static func videoFormat(_ data: Data) throws -> ImageFormat {
        let format = ImageFormat(sniffing: data)
        guard format.isVideo else { throw WebImageError.badImageData(data.isEmpty ? .empty : .unsupportedFormat(format)) }
        return format
    }
}
