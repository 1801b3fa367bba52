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
        for name in taken + ProcessingOptionTable.proOnly.keys + ProcessingOptionTable.needingDetection.keys {
            #expect(page.contains("`\(name)`"), "\(name) is not on the page")
        }
    }
}
