import Foundation

/// PDFs written object by object with a correct cross-reference table, for the PDF coder's tests: plain pages,
/// and the hostile shapes (thousands of pages, a huge media box, references to outside resources, a form that
/// draws itself).
public enum PDFSamples {
    /// A PDF 1.7 file of `objects` (the bodies of objects 1…n, object 1 the catalog), each entry of the xref
    /// table the byte offset of its object.
    public static func document(_ objects: [String]) -> Data {
        var out = "%PDF-1.7\n"
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(format: "%010d 00000 n \n", offset) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }

    /// A content stream object.
    public static func stream(_ content: String, dictionary: String = "") -> String {
        "<< \(dictionary) /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream"
    }

    /// The red rectangle every sample page draws: `10 10 80 30` in points, opaque red on the transparent page.
    public static let redRectangle = "1 0 0 rg 10 10 80 30 re f"

    /// One page of `width × height` points drawing `content`, with `pageExtra` added to its dictionary and
    /// `extraObjects` numbered from 5.
    public static func page(width: Double = 100, height: Double = 50, content: String = redRectangle,
                            pageExtra: String = "", extraObjects: [String] = []) -> Data {
        document(["<< /Type /Catalog /Pages 2 0 R >>",
                  "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(number(width)) \(number(height))] /Contents 4 0 R \(pageExtra) >>",
                  stream(content)] + extraObjects)
    }

    /// One page per entry, each `width × height` points wholly filled with its opaque colour (`rgb`: PDF's
    /// `r g b` components, 0…1): pages of several sizes whose pixels are known exactly.
    public static func colouredPages(_ pages: [(width: Int, height: Int, rgb: String)]) -> Data {
        let kids = pages.indices.map { "\($0 + 3) 0 R" }.joined(separator: " ")
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>"]
        for (index, page) in pages.enumerated() {
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(page.width) \(page.height)] "
                + "/Contents \(pages.count + 3 + index) 0 R >>")
        }
        objects += pages.map { stream("\($0.rgb) rg 0 0 \($0.width) \($0.height) re f") }
        return document(objects)
    }

    /// `count` pages of 100 × 50 points in one flat page tree, page `i` drawing a rectangle `i % 80` points
    /// from the left, all sharing the others' content streams.
    public static func manyPages(_ count: Int) -> Data {
        let kids = (0..<count).map { "\($0 + 3) 0 R" }.joined(separator: " ")
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [\(kids)] /Count \(count) >>"]
        let contentBase = count + 3
        for index in 0..<count {
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 50] /Contents \(contentBase + index % 80) 0 R >>")
        }
        for offset in 0..<80 { objects.append(stream("1 0 0 rg \(offset) 10 10 30 re f")) }
        return document(objects)
    }

    /// A page whose link annotations and open action point at `url` (a URI action, a remote go-to, a launch),
    /// and which draws an image XObject whose data is an external file specification naming `url`: nothing
    /// of it may be fetched.
    public static func externalReferences(url: String) -> Data {
        let content = "\(redRectangle) q 20 0 0 20 50 10 cm /Im0 Do Q"
        return document([
            "<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 50] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> >> /Annots [7 0 R 8 0 R 9 0 R] >>",
            stream(content),
            "<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8 /F << /FS /URL /F (\(url)/image) >> /Length 0 >>\nstream\n\nendstream",
            "<< /S /URI /URI (\(url)/open) >>",
            "<< /Type /Annot /Subtype /Link /Rect [0 0 50 50] /A << /S /URI /URI (\(url)/uri) >> >>",
            "<< /Type /Annot /Subtype /Link /Rect [50 0 100 50] /A << /S /GoToR /F << /FS /URL /F (\(url)/remote.pdf) >> /D [0 /Fit] >> >>",
            "<< /Type /Annot /Subtype /Link /Rect [0 0 100 50] /A << /S /Launch /F (\(url)/launch) >> >>",
        ])
    }

    /// A page drawing a form XObject that draws itself twice: unbounded recursion unless the renderer stops it.
    public static func recursiveForm() -> Data {
        page(content: "\(redRectangle) /Fm0 Do", pageExtra: "/Resources << /XObject << /Fm0 5 0 R >> >>",
             extraObjects: [stream("/Fm0 Do /Fm0 Do",
                                   dictionary: "/Type /XObject /Subtype /Form /BBox [0 0 100 50] /Resources << /XObject << /Fm0 5 0 R >> >>")])
    }

    /// `12.5` as `12.5`, `100` as `100`.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
