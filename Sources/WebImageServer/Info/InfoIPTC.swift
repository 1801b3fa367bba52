import Foundation
import WebImage

/// A source's IPTC-IIM datasets as `/info` gives them: the envelope's (record 1) and the application's
/// (record 2) by their IIM names, as imgproxy Pro's example names them (`Name`, `Caption`, `Copyright Notice`,
/// `Keywords`); a repeated dataset as a list, the two binary version numbers as numbers. Datasets without a name
/// here are left out.
enum InfoIPTC {
    /// Datasets past this many are left out.
    static let maxDatasets = 1_000

    static func fields(_ iptc: Data) -> [String: InfoValue] {
        guard let datasets = SourceMetadata.iptcDatasets(iptc) else { return [:] }
        var texts: [String: [String]] = [:], numbers: [String: Double] = [:], order: [String] = []
        for (record, dataset, value) in datasets.prefix(maxDatasets) {
            guard let name = (record == 1 ? envelope : record == 2 ? application : [:])[dataset] else { continue }
            if dataset == 0 {
                numbers[name] = Double(value.prefix(2).reduce(0) { $0 << 8 | Int($1) })
                continue
            }
            if texts[name] == nil { order.append(name) }
            texts[name, default: []].append(InfoText.clean(value))
        }
        var fields = numbers.mapValues(InfoValue.number)
        for name in order {
            let values = texts[name] ?? []
            fields[name] = values.count == 1 && !alwaysLists.contains(name) ? .text(values[0]) : .list(values)
        }
        return fields
    }

    /// Photoshop's resolution resource (16 bytes), as imgproxy Pro's `photoshop.resolution`.
    static func resolution(_ resource: [UInt8]) -> [String: InfoValue]? {
        guard resource.count >= 16 else { return nil }
        func fixed(_ at: Int) -> Double { Double(resource[at ..< at + 4].reduce(0) { $0 << 8 | Int($1) }) / 65_536 }
        func short(_ at: Int) -> Int { Int(resource[at]) << 8 | Int(resource[at + 1]) }
        func resolutionUnit(_ code: Int) -> InfoValue { .text(code == 2 ? "cm" : "inches") }
        func sizeUnit(_ code: Int) -> InfoValue {
            .text([1: "inches", 2: "cm", 3: "points", 4: "picas", 5: "columns"][code] ?? "inches")
        }
        return ["XResolution": .number(fixed(0)), "XResolutionUnit": resolutionUnit(short(4)), "WidthUnit": sizeUnit(short(6)),
                "YResolution": .number(fixed(8)), "YResolutionUnit": resolutionUnit(short(12)), "HeightUnit": sizeUnit(short(14))]
    }

    /// Datasets the IIM lets repeat, answered as lists even when a file has one.
    private static let alwaysLists: Set<String> = ["Keywords", "Supplemental Category", "Subject Reference", "Content Location Code",
                                                   "Content Location Name", "Destination", "By-line", "By-line Title", "Contact",
                                                   "Writer/Editor", "Reference Service", "Reference Date", "Reference Number"]

    private static let envelope: [UInt8: String] = [
        0: "Model Version", 5: "Destination", 20: "File Format", 22: "File Format Version", 30: "Service Identifier",
        40: "Envelope Number", 50: "Product ID", 60: "Envelope Priority", 70: "Date Sent", 80: "Time Sent",
        100: "Unique Name of Object", 120: "ARM Identifier", 122: "ARM Version",
    ]

    private static let application: [UInt8: String] = [
        0: "Record Version", 3: "Object Type Reference", 4: "Object Attribute Reference", 5: "Name", 7: "Edit Status",
        8: "Editorial Update", 10: "Urgency", 12: "Subject Reference", 15: "Category", 20: "Supplemental Category",
        22: "Fixture Identifier", 25: "Keywords", 26: "Content Location Code", 27: "Content Location Name",
        30: "Release Date", 35: "Release Time", 37: "Expiration Date", 38: "Expiration Time", 40: "Special Instructions",
        42: "Action Advised", 45: "Reference Service", 47: "Reference Date", 50: "Reference Number", 55: "Date Created",
        60: "Time Created", 62: "Digital Creation Date", 63: "Digital Creation Time", 65: "Originating Program",
        70: "Program Version", 75: "Object Cycle", 80: "By-line", 85: "By-line Title", 90: "City", 92: "Sub-location",
        95: "Province/State", 100: "Country/Primary Location Code", 101: "Country/Primary Location Name",
        103: "Original Transmission Reference", 105: "Headline", 110: "Credit", 115: "Source", 116: "Copyright Notice",
        118: "Contact", 120: "Caption", 122: "Writer/Editor", 130: "Image Type", 131: "Image Orientation",
        135: "Language Identifier",
    ]
}
