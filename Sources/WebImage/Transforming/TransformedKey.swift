import Foundation

extension ImageTransformers {
    /// `key` with `-<transformerKey>` inserted before the path extension (SDWebImage's `SDTransformedKeyForKey`).
    ///
    /// `image.png` → `image-T.png`, `image` → `image-T`, `.image` → `.image-T`, `image.` → `image.-T`,
    /// `http://foo/image.png?foo=bar#mark` → `http://foo/image-T.png?foo=bar#mark`: for a non-file URL only the
    /// path changes, the query and fragment stay.
    /// A key whose path has no extension gets the suffix at its very end, query or not, as in SDWebImage.
    public static func transformedKey(_ key: String, transformerKey: String) -> String {
        let url = URLKeyParts(key)
        guard let ext = pathExtension(url?.path ?? key) else { return key + "-" + transformerKey }
        func insert(into path: String) -> String { path.dropLast(ext.count + 1) + "-" + transformerKey + "." + ext }
        guard let url else { return insert(into: key) }
        return url.prefix + insert(into: url.path) + url.suffix
    }

    /// `key` with `-Thumbnail({W,H},A)` inserted the same way (SDWebImage's `SDThumbnailedKeyForKey`).
    public static func thumbnailedKey(_ key: String, pixelSize: PixelSize, preserveAspectRatio: Bool) -> String {
        transformedKey(key, transformerKey: "Thumbnail({\(formatF(Double(pixelSize.width))),\(formatF(Double(pixelSize.height)))},\(preserveAspectRatio ? 1 : 0))")
    }

    /// NSString's `pathExtension`: the text after the last dot of the last component, where that dot is
    /// neither the component's first nor last character.
    static func pathExtension(_ path: String) -> String? {
        let component = path.split(separator: "/", omittingEmptySubsequences: true).last ?? ""
        guard let dot = component.lastIndex(of: "."), dot != component.startIndex,
              component.index(after: dot) != component.endIndex else { return nil }
        guard path.hasSuffix(String(component)) else { return nil }
        return String(component[component.index(after: dot)...])
    }
}

/// A non-file URL key cut into what precedes its path (`scheme://authority`), the path, and the query and
/// fragment; nil for keys that are not such URLs (plain names, file URLs).
private struct URLKeyParts {
    let prefix: String
    let path: String
    let suffix: String

    init?(_ key: String) {
        guard let url = URL(string: key), let scheme = url.scheme, scheme.lowercased() != "file",
              let schemeEnd = key.range(of: "://") else { return nil }
        let afterAuthority = key[schemeEnd.upperBound...]
        let pathStart = afterAuthority.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? key.endIndex
        let rest = key[pathStart...]
        let pathEnd = rest.firstIndex { $0 == "?" || $0 == "#" } ?? key.endIndex
        prefix = String(key[..<pathStart])
        path = String(key[pathStart..<pathEnd])
        suffix = String(key[pathEnd...])
    }
}
