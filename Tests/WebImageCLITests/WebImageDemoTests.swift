import Foundation
import Testing
import WebImage

/// `webimage-demo [--out DIR]`: runs offline (codecs and the network pipeline against its own server), exits 0,
/// writes every file, a contact sheet and a report; `webimage-demo serve` runs the service's tour.
@Suite struct WebImageDemoTests {
    @Test func demoWritesContactSheetAndReport() async throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("demo")
        let result = try await CLIRunner.run(["--out", out], executable: "webimage-demo")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("contact sheet"))

        let sheetData = try Data(contentsOf: URL(fileURLWithPath: out + "/contact-sheet.png"))
        let sheet = try CodersManager.shared.decode(sheetData, options: ImageDecodeOptions())
        #expect(sheet.format == .png)
        // 22 results: 6 columns × 4 rows of 160×120 boxes with labels.
        #expect(sheet.pixelSize == PixelSize(width: 1044, height: 628))

        let reportData = try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: reportData) as? [String: Any])
        #expect(report["ok"] as? Bool == true)
        let steps = try #require(report["steps"] as? [[String: Any]])
        #expect(steps.count == 27)
        #expect(steps.allSatisfy { $0["ok"] as? Bool == true })
        for step in steps {
            guard let file = step["file"] as? String else { continue }
            #expect(FileManager.default.fileExists(atPath: out + "/" + file), "\(file)")
        }
        // The network passes behaved as the pipeline promises.
        func step(_ name: String) throws -> [String: Any] {
            try #require(steps.first { $0["step"] as? String == name }, "no step \(name)")
        }
        #expect(try step("warm pass: 8 images")["cacheType"] as? String == "memory")
        #expect(try step("disk pass: fresh manager")["cacheType"] as? String == "disk")
        #expect(try step("coalescing: 20 loads/1 URL")["requests"] as? Int == 1)
        #expect((try step("progressive: slow download")["progressiveUpdates"] as? Int ?? 0) >= 1)
        #expect(try step("revalidation: 304")["requests"] as? Int == 2)
        // Every still photo showed partial images while its bytes arrived in slices.
        for step in steps where (step["step"] as? String)?.hasPrefix("photo") == true {
            #expect((step["progressiveUpdates"] as? Int ?? 0) >= 1, "\(step)")
        }
    }

    @Test func demoFailsNamingTheDirectoryItCannotCreate() async throws {
        let dir = try TemporaryDirectory()
        let blocker = dir.path("file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let result = try await CLIRunner.run(["library", "--out", blocker], executable: "webimage-demo",
                                              timeout: 60)
        #expect(result.status == 1)
        #expect(result.stderrLines == ["webimage: \(blocker): cannot create directory: a file of that name exists"])
    }

    /// `webimage-demo serve`: every request of the service's offline tour answered as expected, then exit 0.
    @Test func serveDemoRunsOfflineAndExits() async throws {
        let result = try await CLIRunner.run(["serve"], executable: "webimage-demo", timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("listening on http://127.0.0.1:") == true)
        let answers = lines.filter { $0.hasPrefix("ok  ") || $0.hasPrefix("FAIL") }
        try #require(answers.count == 8)
        #expect(answers.allSatisfy { $0.hasPrefix("ok  ") })
        let statuses = answers.map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
        #expect(statuses == ["200", "200", "200", "200", "304", "404", "404", "403"])
        #expect(answers[0].contains("image/jpeg") && answers[0].contains("320x240 1f"))
        #expect(answers[1].contains("image/webp") && answers[1].contains("200x200 1f"))
        #expect(answers[2].contains("image/gif") && answers[2].contains("100x75 12f"))
        #expect(answers[3].contains("application/json"))
        #expect(lines.last == "8 of 8 requests answered as expected")
        #expect(result.stderr.isEmpty)
    }
}
