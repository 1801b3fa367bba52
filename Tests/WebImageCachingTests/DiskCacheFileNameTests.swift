import Foundation
import TestSupport
import Testing
@testable import WebImage

@Suite("Disk cache file names")
struct DiskCacheFileNameTests {
    @Test("SDWebImage's names for a URL and a plain key")
    func knownNames() {
        #expect(DiskCache.fileName(forKey: "https://placehold.co/50x50.jpg") == "e9936aba8d7f7fcca7813d72290de957.jpg")
        #expect(DiskCache.fileName(forKey: "TestImageKey.jpg") == "f77fd0b2d2c9780cce3b1cf4f047030a.jpg")
        #expect(DiskCache.fileName(forKey: "TestImageKey") == "48ded1416321ae888022dccfe1018524")
    }

    @Test("a query's dots never make an extension")
    func queryIgnored() {
        #expect(DiskCache.fileName(forKey: "https://example.com/img?size=1.5&v=2.0")
                == "f207f30f51793522bd4ae7d86fdc2e5f")
        #expect(DiskCache.fileName(forKey: "https://example.com/a.png?x=1") == "0c264741b187f2b96d0f32ff6aee448c.png")
    }

    @Test("an extension over 222 characters is dropped, 222 is kept")
    func longExtension() {
        let kept = String(repeating: "a", count: 222), dropped = String(repeating: "b", count: 223)
        let keptName = DiskCache.fileName(forKey: "https://example.com/x." + kept)
        let droppedName = DiskCache.fileName(forKey: "https://example.com/x." + dropped)
        #expect(keptName == DiskCache.hashedName(forKey: "https://example.com/x." + kept) + "." + kept)
        #expect(droppedName == DiskCache.hashedName(forKey: "https://example.com/x." + dropped))
        #expect(keptName.utf8.count == 255)
    }

    @Test("':' and NUL are removed from the extension")
    func forbiddenCharacters() {
        #expect(DiskCache.fileName(forKey: "https://example.com/a.b:c") == "28890270deceae111906764d48d1e344.bc")
        let withNul = "file.j\u{0}pg"
        #expect(DiskCache.fileName(forKey: withNul) == DiskCache.hashedName(forKey: withNul) + ".jpg")
    }

    @Test("the fast URL path-extension reader always agrees with Foundation's URL")
    func fastExtensionMatchesURL() {
        let samples = [
            "https://placehold.co/50x50.jpg", "http://example.com/a/b/c.tar.gz", "https://example.com/img?size=1.5",
            "https://example.com/a.png?x=1.jpg", "https://example.com", "https://example.com/", "https://example.com/dir/",
            "https://example.com/.hidden", "https://example.com/name.", "https://example.com/noext",
            "https://user@example.com:8080/p;x=1/a.webp", "https://example.com/a.b:c", "https://e.com/~x/(1)*+,.g!f",
            "https://example.com/a%20b.jpg", "https://example.com/a.jpg#frag", "https://example.com/a b.jpg",
            "https://example.com/é.jpg", "ftp://example.com/a.jpg", "https:///a.jpg", "https://example.com/a..b",
        ]
        var generator = SplitMix64(seed: 0xF11E)
        let alphabet = Array("ab.-_~/?:@!$&'()*+,;=%# é".unicodeScalars)
        let random = (0..<3_000).map { _ in
            "https://h.co/" + String(String.UnicodeScalarView((0..<Int(generator.next() % 16)).map { _ in
                alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }))
        }
        var fastAnswers = 0
        for key in samples + random {
            guard let fast = DiskCache.plainURLPathExtension(of: key) else { continue }
            fastAnswers += 1
            #expect(fast == URL(string: key)?.pathExtension, "\(key)")
        }
        #expect(DiskCache.plainURLPathExtension(of: "https://placehold.co/50x50.jpg") == "jpg")
        #expect(DiskCache.plainURLPathExtension(of: "https://example.com/a%20b.jpg") == nil)
        #expect(fastAnswers > 500)
    }

    @Test("the path for a key is the directory plus the file name")
    func pathForKey() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        #expect(disk.path(forKey: "TestImageKey.jpg") == directory.path + "/f77fd0b2d2c9780cce3b1cf4f047030a.jpg")
    }

    @Test("reads fall back to the name without extension")
    func fallbackWithoutExtension() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        let bare = directory.path + "/f77fd0b2d2c9780cce3b1cf4f047030a"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: bare))
        #expect(disk.data(forKey: "TestImageKey.jpg") == Data([1, 2, 3]))
        #expect(disk.containsData(forKey: "TestImageKey.jpg"))
        disk.removeData(forKey: "TestImageKey.jpg")
        #expect(!FileManager.default.fileExists(atPath: bare))
    }

    @Test("the default base directory follows XDG_CACHE_HOME, else ~/.cache")
    func defaultBase() {
        let base = DiskCache.defaultBaseDirectory.path
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            #expect(base == URL(fileURLWithPath: xdg).appendingPathComponent("SwiftWebImage").path)
        } else {
            #expect(base == FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/SwiftWebImage")
        }
    }
}
