import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// Processing options are declared once (``ProcessingOptionTable``): every option a URL can use changes the
/// result key (or says why not), every alias means the same, and every field of ``ProcessingOptions`` is some
/// option's and part of the key.
@Suite struct ProcessingOptionTableTests {
    /// Arguments other than the defaults for each option, by its full name.
    static let samples: [String: String] = [
        "resize": "fill:120:80:1:0", "size": "120:80:1", "resizing_type": "force", "width": "120", "height": "80",
        "enlarge": "1", "extend": "1:nowe", "extend_aspect_ratio": "1:so:2:3", "min-width": "500",
        "min-height": "400", "zoom": "1.5:2", "padding": "10:20", "pixelate": "4", "dpr": "2", "gravity": "nowe:5:6", "crop": "0.5:0.5:so:1:2", "rotate": "90",
        "flip": "1:1", "auto_rotate": "0", "quality": "55", "format_quality": "webp:70", "format": "png",
        "max_bytes": "5000", "background": "ff8000", "strip_metadata": "0", "blur": "2", "sharpen": "1",
        "cachebuster": "v2", "expires": "4102444800", "filename": "cat", "return_attachment": "1",
        "skip_processing": "jpg:png", "trim": "10:ff00ff:1:0",
        "watermark": "0.5:soea:10:10:0.2", "strip_color_profile": "0", "keep_copyright": "0",
        "enforce_thumbnail": "1", "raw": "1", "max_src_resolution": "2.5", "max_src_file_size": "1000",
        "max_animation_frames": "10", "max_animation_frame_resolution": "1", "max_result_dimension": "500",
        "jpeg_options": "1:1:1:0:1:0", "png_options": "1:1:16", "webp_options": "lossless:1:photo",
        "avif_options": "off", "adjust": "10:1.2:0.5", "brightness": "-20", "contrast": "1.5", "saturation": "0",
        "monochrome": "0.5:f00", "duotone": "1:102030:fafafa", "colorize": "0.3:00ff00:1",
        "gradient": "0.8:fff:left:0.2:0.9", "disable_animation": "1", "page": "2", "pages": "3",
        "video_thumbnail_second": "2.5", "video_thumbnail_keyframes": "1", "video_thumbnail_tile": "1:3:2:64:48:1:1:1:0.2:0.8",
        "video_thumbnail_animation": "-1:100:10:64:48",
        "crop_aspect_ratio": "1.5:1", "autoquality": "dssim:0.01:60:90:0.001",
        "watermark_url": "aHR0cHM6Ly9leGFtcGxlLmNvbS9tLnBuZw", "watermark_text": "SGk", "watermark_size": "40:0",
        "watermark_rotate": "45", "watermark_shadow": "2", "dpi": "300", "resizing_algorithm": "cubic",
        "unsharp_masking": "always:2:20", "fallback_image_url": "aHR0cHM6Ly9leGFtcGxlLmNvbS9mLnBuZw", "style": "Y2lyY2xlIHsgZmlsbDogcmVkIH0",
        "hashsum": "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    ]

    static let quality = EncodingDefaults(quality: 80, byFormat: [.webp: 79])

    static func key(_ options: ProcessingOptions) -> String {
        ResultKey.make(source: "https://example.com/a.jpg", options: options,
                       format: FormatChoice(explicit: options.format, accept: nil,
                                            negotiation: ImageProxyConfiguration.Negotiation(webp: .off, avif: .off)), encoding: quality)
    }

    static func parse(_ segment: String) throws -> ProcessingOptions {
        var options = ProcessingOptions()
        try OptionsParser(allowsSecurityOptions: true).apply([Substring(segment)], to: &options)
        return options
    }

    @Test func everyOptionHasASampleAndNamesAreUnique() {
        #expect(Set(ProcessingOptionTable.all.map { $0.names[0] }) == Set(Self.samples.keys))
        let names = ProcessingOptionTable.all.flatMap(\.names)
        #expect(Set(names).count == names.count)
        let refused = (ProcessingOptionTable.proOnly.merging(ProcessingOptionTable.needingDetection) { $1 })
            .flatMap { [$0.key] + $0.value }
        #expect(Set(refused).count == refused.count)
        #expect(Set(refused).isDisjoint(with: names))
    }

    /// Each option, under every one of its names, changes the result key — or is checked before any work, for
    /// the reason its declaration gives, or accepts only what the service always does.
    @Test(arguments: ProcessingOptionTable.all.map { $0.names[0] })
    func anOptionChangesTheKey(_ name: String) throws {
        let spec = try #require(ProcessingOptionTable.byName[name])
        let arguments = try #require(Self.samples[name])
        let defaultKey = Self.key(ProcessingOptions())
        let first = try Self.parse("\(name):\(arguments)")
        for alias in spec.names {
            #expect(try Self.parse("\(alias):\(arguments)") == first, "\(alias) differs from \(name)")
        }
        switch spec.effect {
        case .image, .keyOnly:
            #expect(Self.key(first) != defaultKey, "\(name) does not change the result key")
        case .request(let reason):
            #expect(!reason.isEmpty)
            #expect(Self.key(first) == defaultKey, "\(name) is checked per request and must not split the cache")
        }
    }

    /// Every field of the options is set by some option, and every one but those the key leaves out (for the
    /// reasons it gives) changes the key.
    @Test func everyFieldIsSomeOptionsAndInTheKey() throws {
        let defaults = ProcessingOptions()
        let fields = Mirror(reflecting: defaults).children.compactMap(\.label)
        var reached: Set<String> = []
        // `format:best` sets a field of its own.
        for (name, arguments) in Array(Self.samples) + [("format", "best")] {
            let options = try Self.parse("\(name):\(arguments)")
            let changed = zip(Mirror(reflecting: options).children, Mirror(reflecting: defaults).children)
                .filter { "\($0.value)" != "\($1.value)" }.compactMap(\.0.label)
            reached.formUnion(changed)
            for field in changed where ResultKey.leftOut[field] == nil {
                #expect(Self.key(options) != Self.key(defaults), "\(field) (set by \(name)) is not in the key")
            }
        }
        #expect(Set(fields).subtracting(reached).isEmpty)
    }
}
