/// The demo's results as a fixed-width text table.
enum DemoTable {
    static let headers = ["what", "format", "size", "frames", "bytes", "encode ms", "decode ms", "thumb ms", "partials",
                          "cache", "load ms", "requests", "result"]

    static func render(_ records: [DemoRecord]) -> String {
        let rows = [headers] + records.map(cells)
        let widths = headers.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            let line = zip(row, widths).map { $0.padding(to: $1) }.joined(separator: "  ")
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }

    private static func cells(_ record: DemoRecord) -> [String] {
        let size = record.width.flatMap { w in record.height.map { "\(w)x\($0)" } } ?? "-"
        let result = record.ok ? "ok" + (record.fidelity.map { " (\($0))" } ?? "") : "FAILED"
        return [record.step, record.format, size, record.frames.map(String.init) ?? "-",
                record.bytes.map(String.init) ?? "-", milliseconds(record.encodeMs), milliseconds(record.decodeMs),
                milliseconds(record.thumbnailMs), record.progressiveUpdates.map(String.init) ?? "-",
                record.cacheType ?? "-", milliseconds(record.loadMs), record.requests.map(String.init) ?? "-", result]
    }

    private static func milliseconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        return String((value * 10).rounded() / 10)
    }
}

private extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
