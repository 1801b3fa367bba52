import Foundation
import TestSupport
import Testing
@testable import WebImage

/// Step 6: errors, the failed-URL list, `retryFailed`, and cancellation.
@Suite struct ManagerFailureTests {
    @Test func a404IsBlockedUntilRetryFailedSucceeds() async throws {
        try await withHarness { h async throws in
            h.server.route("/gone.png", TestResponse(status: 404, body: Data("no".utf8)))
            let url = h.server.url("/gone.png")
            #expect(try await loadOnce(h.manager, url).code == 2001)
            #expect(h.manager.isFailedURL(url))
            #expect(try await loadOnce(h.manager, url).code == 1003)
            #expect(h.server.requestCount(for: "/gone.png") == 1)
            // retryFailed goes to the network; still failing, it stays blocked.
            #expect(try await loadOnce(h.manager, url, options: .retryFailed).code == 2001)
            #expect(h.server.requestCount(for: "/gone.png") == 2)
            try h.serve("/gone.png")
            let fixed = try await loadOnce(h.manager, url, options: .retryFailed)
            #expect(fixed.error == nil && fixed.image != nil)
            #expect(!h.manager.isFailedURL(url))
            #expect(try await loadOnce(h.manager, url).error == nil)
        }
    }

    @Test func removeFailedURLLiftsTheBlock() async throws {
        try await withHarness { h async throws in
            h.server.route("/bad.png", TestResponse(body: Data("not an image at all".utf8)))
            let url = h.server.url("/bad.png")
            #expect(try await loadOnce(h.manager, url).code == 1001)
            #expect(h.manager.isFailedURL(url))
            h.manager.removeFailedURL(url)
            #expect(!h.manager.isFailedURL(url))
            #expect(try await loadOnce(h.manager, url).code == 1001)
            h.manager.removeAllFailedURLs()
            #expect(!h.manager.isFailedURL(url))
            #expect(h.server.requestCount(for: "/bad.png") == 2)
        }
    }

    @Test func transientFailuresAreNeverBlocked() async throws {
        try await withHarness { h async throws in
            h.server.route("/reset.png", TestResponse(behavior: .reset))
            h.server.route("/busy.png", TestResponse(status: 503))
            h.server.route("/slow.png", TestResponse(status: 429))
            for path in ["/reset.png", "/busy.png", "/slow.png"] {
                let url = h.server.url(path)
                let result = try await loadOnce(h.manager, url)
                #expect(result.error != nil)
                #expect(!h.manager.isFailedURL(url))
            }
            let refused = try #require(URL(string: "http://127.0.0.1:1/refused.png"))
            #expect(try await loadOnce(h.manager, refused).code == 2100)
            #expect(!h.manager.isFailedURL(refused))
        }
    }

    @Test func theDefaultRuleCoversPermanentAndTransientErrors() {
        #expect(WebImageError.invalidDownloadStatusCode(404, headers: []).isPermanentLoadFailure)
        #expect(WebImageError.invalidDownloadStatusCode(410, headers: []).isPermanentLoadFailure)
        #expect(!WebImageError.invalidDownloadStatusCode(408, headers: []).isPermanentLoadFailure)
        #expect(!WebImageError.invalidDownloadStatusCode(500, headers: []).isPermanentLoadFailure)
        #expect(WebImageError.badImageData(.truncated).isPermanentLoadFailure)
        #expect(WebImageError.invalidDownloadResponse("x").isPermanentLoadFailure)
        #expect(WebImageError.invalidDownloadContentType("text/html").isPermanentLoadFailure)
        #expect(!WebImageError.cancelled.isPermanentLoadFailure)
        for kind in [TransportFailure.Kind.timeout, .connectionRefused, .connectionReset, .hostNotFound] {
            #expect(!WebImageError.transport(TransportFailure(kind: kind, message: "")).isPermanentLoadFailure)
        }
        #expect(WebImageError.transport(TransportFailure(kind: .tls, message: "")).isPermanentLoadFailure)
    }

    @Test func theDelegateRuleReplacesTheBuiltInOne() async throws {
        final class BlockEverything: ImageManagerDelegate {
            func shouldBlockFailedURL(_ url: URL, error: WebImageError) -> Bool { true }
        }
        final class BlockNothing: ImageManagerDelegate {
            func shouldBlockFailedURL(_ url: URL, error: WebImageError) -> Bool { false }
        }
        try await withHarness { h async throws in
            h.server.route("/e503.png", TestResponse(status: 503))
            h.server.route("/e404.png", TestResponse(status: 404))
            let everything = BlockEverything(), nothing = BlockNothing()
            h.manager.delegate = everything
            _ = try await loadOnce(h.manager, h.server.url("/e503.png"))
            #expect(h.manager.isFailedURL(h.server.url("/e503.png")))
            h.manager.delegate = nothing
            _ = try await loadOnce(h.manager, h.server.url("/e404.png"))
            #expect(!h.manager.isFailedURL(h.server.url("/e404.png")))
        }
    }

    @Test func cancelDeliversCancelledOnceAndNeverBlocks() async throws {
        try await withHarness { h async throws in
            h.server.route("/hang.png", TestResponse(behavior: .hang))
            let url = h.server.url("/hang.png")
            let deliveries = Recorder<Int?>()
            let operation = h.manager.loadImage(with: url) { _, _, error, _, finished, _ in
                #expect(finished)
                deliveries.append(error?.code)
            }
            #expect(await eventually { h.server.requestCount(for: "/hang.png") == 1 })
            #expect(h.manager.isRunning)
            operation.cancel()
            operation.cancel()
            #expect(operation.isCancelled)
            #expect(await eventually { deliveries.count == 1 })
            try await Task.sleep(for: .milliseconds(50))
            #expect(deliveries.all == [2002])
            #expect(!h.manager.isFailedURL(url))
            #expect(!h.manager.isRunning)
        }
    }

    @Test func cancelAllCancelsEveryRunningLoad() async throws {
        try await withHarness { h async throws in
            h.server.route("/h1.png", TestResponse(behavior: .hang))
            h.server.route("/h2.png", TestResponse(behavior: .hang))
            let codes = Recorder<Int?>()
            for path in ["/h1.png", "/h2.png"] {
                h.manager.loadImage(with: h.server.url(path)) { _, _, error, _, _, _ in codes.append(error?.code) }
            }
            #expect(await eventually { h.server.totalRequestCount == 2 })
            h.manager.cancelAll()
            #expect(await eventually { codes.count == 2 })
            #expect(codes.all == [2002, 2002])
            #expect(!h.manager.isRunning)
        }
    }

    @Test func cancellingTheTaskCancelsTheAsyncLoad() async throws {
        try await withHarness { h async throws in
            h.server.route("/task.png", TestResponse(behavior: .hang))
            let url = h.server.url("/task.png")
            let task = Task { try await h.manager.image(for: url) }
            #expect(await eventually { h.server.requestCount(for: "/task.png") == 1 })
            task.cancel()
            do {
                _ = try await task.value
                Issue.record("expected cancellation")
            } catch let error as WebImageError {
                #expect(error.code == 2002)
            }
            #expect(!h.manager.isFailedURL(url))
        }
    }
}
