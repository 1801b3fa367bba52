import Foundation
import Testing
import TestSupport
@testable import WebImageServer

/// `COMPATIBILITY.md` names every processing option the code takes or refuses, with every alias.
@Suite struct CompatibilityPageTests {
    static func page() throws -> String {
        try String(contentsOf: TestCorpus.packageRoot.appendingPathComponent("COMPATIBILITY.md"), encoding: .utf8)
    }

    @Test func everyOptionAndAliasIsOnThePage() throws {
        let page = try Self.page()
        let taken = ProcessingOptionTable.all.flatMap(\.names) + ["preset", "pr"]
        let refused = ProcessingOptionTable.notYetSupported.merging(ProcessingOptionTable.proOnly) { $0 + $1 }
        for name in taken + refused.keys {
            #expect(page.contains("`\(name)`"), "\(name) is not on the page")
        }
        for (name, aliases) in ProcessingOptionTable.notYetSupported {
            for alias in aliases { #expect(page.contains("`\(alias)`"), "\(name)'s alias \(alias) is not on the page") }
        }
    }
}
