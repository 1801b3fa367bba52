import Foundation
import Synchronization
import TestSupport
import Testing
@testable import WebImage

/// `target.webImage`: placeholders, auto-cancel, stale completions, transitions and progress.
@Suite struct BindingTests {
    /// Records every image it is given, and which ones came through the transition hook.
    final class Target: ImageTarget {
        let shown = Recorder<(image: Image?, url: URL?, transition: Bool)>()
        func setImage(_ image: Image?, cacheType: ImageCacheType, url: URL?) {
            shown.append((image, url, false))
        }
        func transition(to image: Image?, cacheType: ImageCacheType, url: URL?) {
            shown.append((image, url, true))
        }
        var images: [Image?] { shown.all.map(\.image) }
    }

    static let placeholder = Image(pixels: PixelBuffer(width: 1, height: 1), hasAlpha: true)

    /// Sets and waits for the completion.
    func set(_ target: Target, _ url: URL?, options: WebImageOptions = [], context: WebImageContext)
        async -> (Image?, WebImageError?, ImageCacheType) {
        await withCheckedContinuation { continuation in
            target.webImage.setImage(with: url, placeholder: Self.placeholder, options: options, context: context,
                                     completed: { image, error, cacheType, _ in
                continuation.resume(returning: (image, error, cacheType))
            })
        }
    }

    @Test func placeholderFirstThenTheImageThroughTheTransitionThenAMemoryHitWithout() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/b.png", width: 5, height: 5)
            let context = WebImageContext(customManager: h.manager)
            let target = Target()
            let (image, error, cacheType) = await set(target, url, context: context)
            #expect(image?.pixelWidth == 5 && error == nil && cacheType == .none)
            #expect(target.shown.count == 2)
            #expect(target.images.first??.pixelWidth == 1 && target.shown.all.first?.transition == false)
            #expect(target.shown.all.last?.image === image && target.shown.all.last?.transition == true)
            #expect(target.webImage.currentImageURL == url)
            #expect(target.webImage.progress.fractionCompleted == 1)
            let second = Target()
            _ = await set(second, url, context: context)
            #expect(second.shown.all.last?.transition == false)
            _ = await set(second, url, options: .forceTransition, context: context)
            #expect(second.shown.all.last?.transition == true)
        }
    }

    @Test func delayPlaceholderShowsItOnlyOnFailure() async throws {
        try await withHarness { h async throws in
            h.server.route("/fail.png", TestResponse(status: 404))
            let url = try h.serve("/ok.png")
            let context = WebImageContext(customManager: h.manager)
            let target = Target()
            _ = await set(target, url, options: .delayPlaceholder, context: context)
            #expect(target.shown.count == 1 && target.images.first??.pixelWidth == 8)
            let failing = Target()
            let (_, error, _) = await set(failing, h.server.url("/fail.png"), options: .delayPlaceholder, context: context)
            #expect(error?.code == 2001)
            #expect(failing.shown.count == 1 && (failing.images.first ?? nil) === Self.placeholder)
        }
    }

    @Test func avoidAutoSetImageLeavesTheTargetAlone() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/manual.png")
            let target = Target()
            let (image, _, _) = await set(target, url, options: .avoidAutoSetImage,
                                          context: WebImageContext(customManager: h.manager))
            #expect(image != nil)
            #expect(target.shown.count == 1 && (target.images.first ?? nil) === Self.placeholder)
        }
    }

    @Test func rapidReuseOfOneTargetShowsOnlyTheLastImageExactlyOnce() async throws {
        try await withHarness { h async throws in
            let context = WebImageContext(customManager: h.manager)
            var urls: [URL] = []
            // Every image but the last is held until all 50 loads have started: a loaded machine could
            // otherwise finish one before the next reuse, and showing it then is right.
            let earlierImages = TestGate()
            for i in 0..<50 {
                var response = TestResponse(body: try pngData(width: i + 1, height: 2, rgba: [1, 2, 3, 255]),
                                            delay: .milliseconds(i % 5))
                if i < 49 { response.gate = earlierImages }
                h.server.route("/r\(i).png", response)
                urls.append(h.server.url("/r\(i).png"))
            }
            let target = Target()
            let completions = Recorder<Int?>()
            for url in urls {
                target.webImage.setImage(with: url, context: context, completed: { _, error, _, _ in
                    completions.append(error?.code)
                })
            }
            earlierImages.open()
            #expect(await eventually { completions.count == 50 })
            let shownImages = target.images.compactMap { $0 }
            #expect(shownImages.count == 1)
            #expect(shownImages.first?.pixelWidth == 50)
            #expect(completions.all.filter { $0 == nil }.count >= 1)
            #expect(target.webImage.currentImageURL == urls.last)
        }
    }

    @Test func avoidAutoCancelImageStillIgnoresStaleResults() async throws {
        try await withHarness { h async throws in
            let context = WebImageContext(customManager: h.manager)
            h.server.route("/slow.png", TestResponse(body: try pngData(width: 3, height: 3, rgba: [5, 5, 5, 255]),
                                                     delay: .milliseconds(150)))
            let fast = try h.serve("/fast.png", width: 4, height: 4)
            let target = Target()
            let completions = Recorder<Int?>()
            target.webImage.setImage(with: h.server.url("/slow.png"), options: .avoidAutoCancelImage, context: context,
                                     completed: { image, error, _, _ in completions.append(image?.pixelWidth ?? error?.code) })
            target.webImage.setImage(with: fast, options: .avoidAutoCancelImage, context: context,
                                     completed: { image, error, _, _ in completions.append(image?.pixelWidth ?? error?.code) })
            #expect(await eventually { completions.count == 2 })
            #expect(Set(completions.all.compactMap { $0 }) == [3, 4])  // both loads completed
            #expect(target.images.compactMap { $0 }.map(\.pixelWidth) == [4])
        }
    }

    @Test func cancelCurrentImageLoadCancelsAndKeepsWhatIsShown() async throws {
        try await withHarness { h async throws in
            h.server.route("/never.png", TestResponse(behavior: .hang))
            let target = Target()
            let codes = Recorder<Int?>()
            target.webImage.setImage(with: h.server.url("/never.png"), placeholder: Self.placeholder,
                                     context: WebImageContext(customManager: h.manager), completed: { _, error, _, _ in
                codes.append(error?.code)
            })
            #expect(await eventually { h.server.requestCount(for: "/never.png") == 1 })
            target.webImage.cancelCurrentImageLoad()
            #expect(await eventually { codes.count == 1 })
            #expect(codes.all == [2002])
            #expect(target.shown.count == 1 && (target.images.first ?? nil) === Self.placeholder)
        }
    }

    @Test func operationKeysSeparateLoadsOnOneTarget() async throws {
        try await withHarness { h async throws in
            h.server.route("/k1.png", TestResponse(behavior: .hang))
            let other = try h.serve("/k2.png")
            let target = Target()
            let codes = Recorder<Int?>()
            target.webImage.setImage(with: h.server.url("/k1.png"),
                                     context: WebImageContext(operationKey: "background", customManager: h.manager),
                                     completed: { _, error, _, _ in codes.append(error?.code) })
            let (image, _, _) = await set(target, other, context: WebImageContext(customManager: h.manager))
            #expect(image != nil)
            #expect(codes.count == 0)  // the "background" load was not cancelled by the default key's load
            target.webImage.cancelCurrentImageLoad(operationKey: "background")
            #expect(await eventually { codes.all == [2002] })
        }
    }

    @Test func registryEntriesOfDeadTargetsAreSwept() {
        for _ in 0..<200 {
            let target = Target()
            _ = TargetRegistry.state(for: target)
        }
        #expect(TargetRegistry.count < 200)
    }
}
