/// A line a C library wrote about its work (a font it could not scale, a damaged cross-reference table, the
/// trace of a failed check), for a program to log as its own.
public struct LibraryLogMessage: Sendable, Hashable {
    /// Who wrote it, in lower case: a GLib log domain (`poppler`, `pango`, `librsvg`, `glib-gobject`), or the
    /// library a captured line of standard error is recognised as (`libjxl`, `dav1d`, `libjpeg`);
    /// ``unidentified`` when nothing says.
    public var library: String
    /// What it wrote, without a trailing line break.
    public var text: String

    public init(library: String, text: String) {
        self.library = library
        self.text = text
    }

    /// The ``library`` of a line no known library's shape matches.
    public static let unidentified = "unidentified"
}
