import Foundation
import TestSupport
import Testing
@testable import WebImageServer

/// Draining as an orchestrator sees it: from the moment the graceful shutdown starts, `/ready` answers 503 on
/// a new connection while `/health` still answers 200, for as long as a result begun before is being made;
/// then the listener closes.
@Suite struct ProxyDrainTests {
    @Test func readyAnswers503FromTheStartOfTheDrain() async throws {
        let harness = try await ProxyHarness.start(ProxyHarness.configuration())
        // The origin holds the source back until the test has asked what it needs: no delay to guess.
        let gate = TestGate()
        var source = TestResponse(headers: [("Content-Type", "image/jpeg")], body: try Fixtures.jpeg(40, 30))
        source.gate = gate
        harness.origin.route("/a.jpg", source)
        #expect(try await harness.get("/ready").status == 200)
        let inFlight = Task { try await harness.get(harness.signedPath("w:20", source: "/a.jpg")) }
        #expect(await eventually { harness.proxy.resultsInProgress == 1 })

        await harness.server.triggerGracefulShutdown()
        #expect(await eventually { !harness.proxy.isReady })
        let ready = try await harness.get("/ready")
        #expect(ready.status == 503)
        #expect(ready.text == "not ready\n")
        #expect(try await harness.get("/health").status == 200)
        let refused = try await harness.get(harness.signedPath("w:10", source: "/a.jpg"))
        #expect(refused.status == 503)

        gate.open()
        let answer = try await inFlight.value
        #expect(answer.status == 200)
        #expect(try answer.image().pixelWidth == 20)
        await harness.waitUntilStopped()
        await #expect(throws: (any Error).self) { _ = try await harness.get("/ready", timeout: .seconds(2)) }
        await harness.stop()
    }
}
