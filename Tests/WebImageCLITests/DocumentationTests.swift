import Foundation
import Testing
import TestSupport

/// The user documentation stays findable and true: a short README that links every guide, relative links and
/// anchors that resolve, DocC links that name real articles and symbols, and no page that names internal work.
@Suite struct DocumentationTests {
    static let root = TestCorpus.packageRoot
    static let catalog = "Sources/WebImage/WebImage.docc"

    /// The Markdown pages a reader of the repository meets, relative to the root.
    static let pages: [String] = {
        let guides = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Docs").path)) ?? []
        return ["README.md", "COMPATIBILITY.md", "ARCHITECTURE.md", "CHANGELOG.md"]
            + guides.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
    }()

    static let articles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { catalog + "/" + $0 }
    }()

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The text outside fenced code blocks, where links and headings are Markdown.
    static func prose(_ text: String) -> [Substring] {
        var inFence = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { inFence.toggle(); return false }
            return !inFence
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
    static func anchor(_ heading: Substring) -> String {
        let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
        return String(title.unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " { return "-" }
            if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
            return nil
        })
    }

    static func anchors(in relative: String) throws -> Set<String> {
        Set(prose(try text(relative)).filter { $0.hasPrefix("#") }.map(anchor))
    }

    /// Each `[text](target)` link's target in the prose, images included.
    static func links(in text: String) -> [String] {
        prose(text).flatMap { line in
            line.matches(of: /\]\(([^)\s]+)\)/).map { String($0.output.1) }
        }
    }

    @Test func theReadmeIsAFrontPageThatLinksEveryGuide() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 250, "README.md has \(lines) lines")
        let targets = Set(Self.links(in: readme))
        for page in Self.pages where page != "README.md" {
            #expect(targets.contains(page), "README.md does not link \(page)")
        }
        #expect(readme.contains("make demo\nmake test\n"), "the quick start's two commands")
    }

    @Test(arguments: pages + articles)
    func relativeLinksAndAnchorsResolve(page: String) throws {
        let folder = (page as NSString).deletingLastPathComponent
        for link in Self.links(in: try Self.text(page)) where !link.contains("://") && !link.hasPrefix("mailto:") {
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let path = parts[0].isEmpty ? page
                : ((folder as NSString).appendingPathComponent(String(parts[0])) as NSString).standardizingPath
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                    "\(page): \(link) names no file")
            if parts.count == 2, path.hasSuffix(".md") {
                #expect(try Self.anchors(in: path).contains(String(parts[1])), "\(page): \(link) names no heading")
            }
        }
    }

    /// `<doc:Article>` names an article of the catalog; ``Type`` and ``Type/member`` name a public type of the
    /// library's modules and, for members, a declaration of that name.
    @Test(arguments: articles)
    func docCLinksNameArticlesAndSymbols(article: String) throws {
        let text = try Self.text(article)
        let names = Set(Self.articles.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension })
        for match in text.matches(of: /<doc:([A-Za-z0-9_-]+)>/) {
            #expect(names.contains(String(match.output.1)), "\(article): <doc:\(match.output.1)>")
        }
        let sources = try Self.librarySources()
        for match in Self.prose(text).joined(separator: "\n").matches(of: /``([A-Za-z0-9_\/():]+)``/) {
            let path = match.output.1.split(separator: "/")
            guard let type = path.first, type != "WebImage" else { continue }
            #expect(sources.contains { $0.contains(try! Regex("public (final )?(class|struct|enum|protocol|actor) \(type)\\b")) },
                    "\(article): ``\(match.output.1)`` names no public type")
            if path.count > 1 {
                let member = path[1].prefix { $0 != "(" }
                #expect(sources.contains { $0.contains(try! Regex("(func|var|let|case|init|struct|class|enum) ?\(member)\\b")) },
                        "\(article): ``\(match.output.1)`` names no member")
            }
        }
    }

    @Test(arguments: pages + articles)
    func noPageNamesInternalWork(page: String) throws {
        let text = try Self.text(page)
        for word in [/(?i)\bissues? #?\d+/, /(?i)\b(?:this|last|previous|next) session\b/, /(?i)\bsession's\b/] {
            #expect(text.firstMatch(of: word) == nil, "\(page): \(text.firstMatch(of: word).map { String($0.output) } ?? "")")
        }
    }

    static func librarySources() throws -> [String] {
        try ["WebImage", "WebImageCore", "WebImageCodecs"].flatMap { module -> [String] in
            let folder = root.appendingPathComponent("Sources/" + module)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            return try files.filter { $0.hasSuffix(".swift") }.map {
                try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
            }
        }
    }
}
