import CPango
import WebImage
import WebImageCodecs

/// imgproxy Pro's text watermark (`watermark_text`): Pango markup laid out by pango and drawn by cairo, black
/// `sans 16` unless the markup says otherwise, on a transparent canvas the size of the layout's logical extents.
/// Sizes are libvips' (`vips_text`, which imgproxy draws text with): 72 DPI, so a point is a pixel.
///
/// Markup reads nothing outside itself: pango parses it with GLib's GMarkup, which knows no external entities
/// and no DTD (a `<!DOCTYPE … SYSTEM "file:///…">` is skipped unread, an entity other than XML's five and
/// character references is an error), and pango's tags name fonts and colours, never files or URLs.
///
/// Threads: each call makes its own `PangoContext` and layout on `pango_cairo_font_map_get_default()`, which is
/// one font map per thread since pango 1.32.6, so the worker threads share no pango object (fontconfig and
/// cairo are thread-safe); a worker's font map and its font cache live as long as the thread.
///
/// Bounds, all checked before anything is drawn: the markup's size, every font size it sets, what the layout
/// can add up to (``layoutBudget``) before it is made, then the layout's extents against the result's limits
/// before the surface is allocated.
enum TextWatermark {
    typealias Limits = ProcessingPlan.Limits

    /// The longest markup, in UTF-8 bytes.
    static let maxMarkupBytes = 4096
    /// The largest font size, in points (pixels): a size or a font description, times the largest scale
    /// (`<big>`, `size="larger"`, `xx-large`).
    static let maxFontSize = 512.0
    /// The most pixels the text's bytes may add up to along a line or down the lines, each byte counted as
    /// twice the largest font size (times the line height factor) plus every spacing and shift the markup
    /// sets: half pango's 32-bit range of 1/1024 pixels, so its sums cannot overflow.
    static let layoutBudget = 1 << 20
    /// The font when the markup sets none.
    static let defaultFont = "sans 16"

    /// `markup` drawn as straight RGBA on a transparent canvas of its logical extents.
    ///
    /// - Throws: ``ProxyError/badRequest(_:)`` naming `watermark_text` for markup that is too long, invalid
    ///   (pango's message), without text, with a font size or spacing over the bounds, or drawn larger than
    ///   `limits`.
    static func render(markup: String, limits: Limits) throws(ProxyError) -> PixelBuffer {
        guard markup.utf8.count <= maxMarkupBytes else {
            throw .badRequest("watermark_text: the markup is over \(maxMarkupBytes) bytes")
        }
        let parsed = try Markup(markup)
        defer { parsed.free() }
        guard parsed.textBytes > 0 else { throw .badRequest("watermark_text: no text to draw") }
        try parsed.checkBounds()

        let context = pango_font_map_create_context(pango_cairo_font_map_get_default())
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        pango_cairo_context_set_resolution(context, 72)
        let layout = pango_layout_new(context)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = pango_font_description_from_string(defaultFont)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_text(layout, parsed.text, -1)
        pango_layout_set_attributes(layout, parsed.attributes)

        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, nil, &logical)
        let width = Int(logical.width), height = Int(logical.height)
        guard min(width, height) >= 0, max(width, height) <= limits.maxSide,
              max(width, 1) * max(height, 1) <= limits.maxPixels else {
            throw .badRequest("watermark_text: the text is \(width)×\(height) pixels, over the limit of "
                              + "\(limits.maxSide) a side and \(limits.maxPixels) pixels")
        }
        let size = PixelSize(width: max(width, 1), height: max(height, 1))
        var failure: String?
        let pixels = PixelBuffer(width: size.width, height: size.height) { raw in
            failure = CairoRaster.draw(into: raw, size: size) { cairo in
                cairo_move_to(cairo, -Double(logical.x), -Double(logical.y))
                pango_cairo_show_layout(cairo, layout)
                return nil
            }
        }
        if let failure { throw .badRequest("watermark_text: \(failure)") }
        return pixels
    }
}

/// Pango markup parsed into its text and attribute list, which the caller frees.
private struct Markup {
    let text: UnsafeMutablePointer<CChar>
    let attributes: OpaquePointer
    let textBytes: Int

    init(_ markup: String) throws(ProxyError) {
        var markup = markup
        var attributes: OpaquePointer?
        var text: UnsafeMutablePointer<CChar>?
        var error: UnsafeMutablePointer<GError>?
        let parsed = markup.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { bytes in
                pango_parse_markup(bytes.baseAddress, Int32(bytes.count), 0, &attributes, &text, nil, &error)
            }
        }
        guard parsed != 0, let attributes, let text else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "pango could not parse it"
            if let error { g_error_free(error) }
            throw .badRequest("watermark_text: invalid Pango markup: \(message)")
        }
        self.text = text
        self.attributes = attributes
        textBytes = strlen(text)
    }

    func free() {
        g_free(text)
        pango_attr_list_unref(attributes)
    }

    /// Refuses markup whose font sizes are over ``TextWatermark/maxFontSize`` or whose text could lay out past
    /// ``TextWatermark/layoutBudget``, before pango lays anything out.
    func checkBounds() throws(ProxyError) {
        var largestSize = 16.0, largestScale = 1.0, lineHeightFactor = 1.0, spacing = 0.0
        // In 1/1024 points (pixels at 72 DPI).
        func size(_ value: Int32) { largestSize = max(largestSize, Double(value) / Double(PANGO_SCALE)) }
        func offset(_ value: Int32) { spacing += abs(Double(value)) / Double(PANGO_SCALE) }
        let list = pango_attr_list_get_attributes(attributes)
        var node = list
        while let current = node {
            let attribute = current.pointee.data.assumingMemoryBound(to: PangoAttribute.self)
            let raw = UnsafeRawPointer(attribute)
            switch attribute.pointee.klass.pointee.type {
            case PANGO_ATTR_SIZE, PANGO_ATTR_ABSOLUTE_SIZE:
                size(raw.assumingMemoryBound(to: PangoAttrSize.self).pointee.size)
            case PANGO_ATTR_FONT_DESC:
                let description = raw.assumingMemoryBound(to: PangoAttrFontDesc.self).pointee.desc
                if pango_font_description_get_set_fields(description).rawValue & PANGO_FONT_MASK_SIZE.rawValue != 0 {
                    size(pango_font_description_get_size(description))
                }
            case PANGO_ATTR_SCALE:
                largestScale = max(largestScale, raw.assumingMemoryBound(to: PangoAttrFloat.self).pointee.value)
            case PANGO_ATTR_LINE_HEIGHT:
                lineHeightFactor = max(lineHeightFactor,
                                       raw.assumingMemoryBound(to: PangoAttrFloat.self).pointee.value)
            case PANGO_ATTR_LETTER_SPACING, PANGO_ATTR_RISE, PANGO_ATTR_BASELINE_SHIFT,
                 PANGO_ATTR_ABSOLUTE_LINE_HEIGHT:
                offset(raw.assumingMemoryBound(to: PangoAttrInt.self).pointee.value)
            default: break
            }
            pango_attribute_destroy(attribute)
            node = current.pointee.next
        }
        g_slist_free(list)

        let fontSize = largestSize * largestScale
        guard fontSize <= TextWatermark.maxFontSize else {
            throw .badRequest("watermark_text: a font size over \(Int(TextWatermark.maxFontSize)) pt")
        }
        let perByte = 2 * fontSize * lineHeightFactor + spacing
        guard Double(textBytes) * perByte <= Double(TextWatermark.layoutBudget) else {
            throw .badRequest("watermark_text: the text would lay out larger than \(TextWatermark.layoutBudget) "
                              + "pixels")
        }
    }
}
