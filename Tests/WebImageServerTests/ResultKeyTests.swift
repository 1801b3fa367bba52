import Testing
import WebImage
@testable import WebImageServer

/// The result key is made from the fields of the options, each written by the one option that owns it: URLs
/// meaning the same image share a key, different images never do.
@Suite struct ResultKeyTests {
    static func options(_ path: String) throws -> ProcessingOptions {
        var options = ProcessingOptions()
        try OptionsParser(allowsSecurityOptions: true).apply(path.split(separator: "/"), to: &options)
        return options
    }

    static func key(_ path: String) throws -> String {
        ProcessingOptionTableTests.key(try options(path))
    }

    @Test func theKeyIsSourceFormatQualityAndTheOptionsInDeclarationOrder() throws {
        #expect(try Self.key("cb:v1/q:75/rs:fill:300:200/mrd:50")
            == "https://example.com/a.jpg|source(jpeg,png,gif)|;g2|rt:fill/w:300/h:200/q:75/cb:v1/mrd:50")
        #expect(try Self.key("fq:webp:70/kcr:0/g:fp:0.5:0.25")
            == "https://example.com/a.jpg|source(jpeg,png,gif)|d80,webp=79;g2|g:fp:0.5:0.25:0.0:0.0/fq:webp=70/kcr:0")
        #expect(try Self.key("") == "https://example.com/a.jpg|source(jpeg,png,gif)|d80,webp=79;g2|")
        // lanczos3 is the default: naming it changes nothing.
        #expect(try Self.key("ra:lanczos3") == Self.key(""))
    }

    /// Options that write the same fields (`resize`, `size`, `width`…) give the same key for the same values.
    @Test(arguments: [
        ("rs:fit:100:0", "w:100/rt:fit"),
        ("rs:fit:100:0", "s:100"),
        ("s:100:50:1", "w:100/h:50/el:1"),
        ("rs:fill:10:20:0:1:nowe:2:3", "rt:fill/width:10/height:20/ex:1:nowe:2:3"),
        ("w:100/w:0", ""),
        ("q:50/fq:webp:70", "quality:50"),
        ("sm:0/kcr:0", "sm:0"),
        ("rot:450", "rot:90"),
        ("z:2", "z:2:2"),
        ("pd:10", "pd:10:10:10:10"),
        ("wm:0:soea", ""),
        ("ex:1:ce/ex:0", ""),
    ])
    func urlsMeaningTheSameImageShareAKey(_ first: String, _ second: String) throws {
        #expect(try Self.key(first) == Self.key(second))
    }

    /// The samples of ``ProcessingOptionTableTests/samples``, each option from its default, give keys different
    /// from each other and from the defaults' (but those of `.request` options, which keep the default key).
    @Test func differentOptionsNeverShareAKey() throws {
        let keyed = ProcessingOptionTable.all.filter { if case .request = $0.effect { false } else { true } }
        let keys = try keyed.map { spec in
            try Self.key("\(spec.names[0]):\(try #require(ProcessingOptionTableTests.samples[spec.names[0]]))")
        }
        #expect(Set(keys + [try Self.key("")]).count == keyed.count + 1)
    }

    /// A value holding the separators cannot pass for another option's part.
    @Test func separatorsInValuesAreEscaped() {
        var forged = ProcessingOptions(), real = ProcessingOptions()
        forged.cacheBuster = "1/mrd:5"
        real.cacheBuster = "1"
        real.security.maxResultDimension = 5
        #expect(ProcessingOptionTableTests.key(forged) != ProcessingOptionTableTests.key(real))
        #expect(ProcessingOptionTableTests.key(forged).hasSuffix("|cb:1%2Fmrd%3A5"))
    }

    /// Each field has one owner in the key, and no `.request` option has a part.
    @Test func eachFieldIsWrittenByOneOption() {
        let fields = ProcessingOptionTable.all.flatMap { $0.key?.fields ?? [] }.map { $0 as AnyKeyPath }
        #expect(Set(fields).count == fields.count)
        for spec in ProcessingOptionTable.all {
            if case .request = spec.effect { #expect(spec.key == nil, "\(spec.names[0])") }
        }
    }

    /// Without a quality in the URL, the service's qualities and `format_quality` decide it, so they are in the
    /// key; with one, neither is.
    @Test func qualityDefaultsCountOnlyWithoutAURLQuality() throws {
        func key(_ path: String, _ defaults: EncodingDefaults) throws -> String {
            ResultKey.make(source: "s", options: try Self.options(path),
                           format: FormatChoice(format: .jpeg, dependsOnAccept: false), encoding: defaults)
        }
        let usual = EncodingDefaults(quality: 80, byFormat: [:]), other = EncodingDefaults(quality: 80, byFormat: [.webp: 60])
        #expect(try key("w:10", usual) != key("w:10", other))
        #expect(try key("w:10/q:50", usual) == key("w:10/q:50", other))
        #expect(try key("w:10/fq:webp:70", usual) != key("w:10", usual))
        #expect(try key("w:10/q:50/fq:webp:70", usual) == key("w:10/q:50", usual))
    }

    /// The encoders' settings change a result's bytes whatever the URL says, so each is in every key.
    @Test(arguments: [ImageEncodeTuning(jpegProgressive: true), ImageEncodeTuning(webpMethod: 6),
                      ImageEncodeTuning(webpPreset: .photo), ImageEncodeTuning(avifSpeed: 3), ImageEncodeTuning(jxlEffort: 9)])
    func encoderSettingsCountInEveryKey(tuning: ImageEncodeTuning) throws {
        let usual = EncodingDefaults(quality: 80, byFormat: [:]), tuned = EncodingDefaults(quality: 80, byFormat: [:], tuning: tuning)
        for path in ["w:10", "w:10/q:50"] {
            let keys = try [usual, tuned].map {
                ResultKey.make(source: "s", options: try Self.options(path),
                               format: FormatChoice(format: .jpeg, dependsOnAccept: false), encoding: $0)
            }
            #expect(keys[0] != keys[1], "\(path)")
        }
    }
}
