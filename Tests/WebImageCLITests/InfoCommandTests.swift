import Foundation
import Testing
import TestSupport
import WebImage

/// `webimage info FILE --json` on real corpus files: the documented keys, exact values, one JSON line.
@Suite struct InfoCommandTests {
    static let keys: Set<String> = ["format", "width", "height", "frameCount", "loopCount", "frameDurations",
                                    "hasAlpha", "orientation", "isAnimated"]

    /// Runs `info --json` and parses the one line it prints.
    private func infoJSON(_ path: String) async throws -> [String: Any] {
        let result = try await CLIRunner.run(["info", path, "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let json = try #require(object)
        #expect(Set(json.keys) == Self.keys)
        return json
    }

    @Test func animatedGIF() async throws {
        let json = try await infoJSON(CLITestPaths.moonGIF)
        #expect(json["format"] as? String == "gif")
        #expect(json["width"] as? Int == 116)
        #expect(json["height"] as? Int == 100)
        #expect(json["frameCount"] as? Int == 14)
        #expect(json["loopCount"] as? Int == 10)
        let durations = try #require(json["frameDurations"] as? [Double])
        #expect(durations.count == 14)
        #expect(durations.allSatisfy { abs($0 - 0.15) < 1e-9 })
        #expect(json["hasAlpha"] as? Bool == false)
        #expect(json["orientation"] as? Int == 1)
        #expect(json["isAnimated"] as? Bool == true)
    }

    @Test func lossyWebP() async throws {
        let json = try await infoJSON(CLITestPaths.testWebP)
        #expect(json["format"] as? String == "webp")
        #expect(json["width"] as? Int == 128)
        #expect(json["height"] as? Int == 128)
        #expect(json["frameCount"] as? Int == 1)
        #expect(json["loopCount"] as? Int == 0)
        #expect(json["frameDurations"] as? [Double] == [0])
        #expect(json["hasAlpha"] as? Bool == false)
        #expect(json["orientation"] as? Int == 1)
        #expect(json["isAnimated"] as? Bool == false)
    }

    @Test func rgbaPNG() async throws {
        let json = try await infoJSON(CLITestPaths.rgbaPNG)
        #expect(json["format"] as? String == "png")
        #expect(json["width"] as? Int == 32)
        #expect(json["height"] as? Int == 32)
        #expect(json["frameCount"] as? Int == 1)
        #expect(json["hasAlpha"] as? Bool == true)
        #expect(json["isAnimated"] as? Bool == false)
    }

    /// Animations are described from their headers: the same values the full decode gives.
    @Test(arguments: ["Tests/WebImageCodecsTests/Fixtures/png/pillow-animated.png",
                      "Tests/WebImageCodecsTests/Fixtures/webp/alpha_anim_img2webp.webp"])
    func animationsMatchTheFullDecode(relative: String) async throws {
        let path = TestCorpus.packageRoot.appendingPathComponent(relative).path
        let json = try await infoJSON(path)
        let image = try CodersManager.shared.decode(Data(contentsOf: URL(fileURLWithPath: path)), options: .init())
        #expect(image.frameCount > 1)
        #expect(json["format"] as? String == image.format.rawValue)
        #expect(json["width"] as? Int == image.pixelWidth && json["height"] as? Int == image.pixelHeight)
        #expect(json["frameCount"] as? Int == image.frameCount && json["loopCount"] as? Int == image.loopCount)
        #expect(json["frameDurations"] as? [Double] == image.frameDurations)
        #expect(json["hasAlpha"] as? Bool == image.hasAlpha)
        #expect(json["orientation"] as? Int == image.orientation.rawValue)
        #expect(json["isAnimated"] as? Bool == true)
    }

    @Test func rawJSONHasSortedKeysAndNumbers() async throws {
        let result = try await CLIRunner.run(["info", CLITestPaths.testWebP, "--json"])
        #expect(result.stdout == """
            {"format":"webp","frameCount":1,"frameDurations":[0],"hasAlpha":false,"height":128,\
            "isAnimated":false,"loopCount":0,"orientation":1,"width":128}

            """)
    }

    @Test func humanSummary() async throws {
        let result = try await CLIRunner.run(["info", CLITestPaths.moonGIF])
        #expect(result.status == 0)
        #expect(result.stdout == """
            \(CLITestPaths.moonGIF)
              format      gif
              size        116x100 px
              frames      14 (animated)
              loop count  10
              durations   \(Array(repeating: "0.15", count: 14).joined(separator: " ")) s
              alpha       no
              orientation 1 (up)

            """)
    }
}
