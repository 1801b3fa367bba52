import Foundation
import Logging

/// An image on its way to the caller, with where it came from.
struct LoadedImage: Sendable {
    var image: Image
    /// The original bytes (downloaded, or read with the cached original).
    var data: Data?
    /// `.none` for a download, else the cache it was found in.
    var cacheType: ImageCacheType
    /// Whether the original bytes are already in the original cache (found there): never written twice.
    var originalStored: Bool
    /// Whether the image is the full key's cached final image: delivered as is, nothing transformed or stored.
    var isFromFullKey = false
    /// The download's HTTP validators, kept with every disk entry stored from it.
    var validators: HTTPValidators?
}

extension ImageManager {
    /// Steps 7–8: transform, store, deliver; with `waitStoreCache` the delivery waits for the stores.
    func finishLoaded(_ plan: LoadPlan, _ operation: any LoadReceiving, _ loaded: LoadedImage) {
        guard !loaded.isFromFullKey else {
            deliverFinal(plan, operation, loaded, image: loaded.image)
            return
        }
        guard let transformer = plan.context.transformer else {
            storeAndDeliver(plan, operation, loaded, final: loaded.image)
            return
        }
        guard shouldTransform(loaded.image, plan) else {
            storeAndDeliver(loaded.image.isVector ? plan.untransformed : plan, operation, loaded, final: loaded.image)
            return
        }
        transformQueue.async { [self] in
            guard operation.isRunning else { return }
            let final = (transformer.transform(loaded.image, forKey: plan.key)?.with(isTransformed: true))
                ?? loaded.image
            storeAndDeliver(plan, operation, loaded, final: final)
        }
    }

    /// SDWebImage's rule: animated images are transformed only with `transformAnimatedImage`, vector ones (SVG,
    /// PDF: rasterising at the size wanted beats transforming a raster) only with `transformVectorImage`.
    private func shouldTransform(_ image: Image, _ plan: LoadPlan) -> Bool {
        (!image.isAnimated || plan.options.contains(.transformAnimatedImage))
            && (!image.isVector || plan.options.contains(.transformVectorImage))
    }

    private func storeAndDeliver(_ plan: LoadPlan, _ operation: any LoadReceiving, _ loaded: LoadedImage,
                                 final: Image) {
        let waits = plan.options.contains(.waitStoreCache)
        let pending = Countdown(1)
        let done: @Sendable () -> Void = { [self] in
            guard waits, pending.tick() else { return }
            deliverFinal(plan, operation, loaded, image: final)
        }
        var stores: [(@escaping @Sendable () -> Void) -> Void] = []
        // The original bytes under the original key, when the final image is cached under another key.
        if plan.hasDerivedKey, !loaded.originalStored, plan.context.originalStoreCacheType != .none,
           let data = loaded.data {
            let originalImage = loaded.image.isThumbnail ? nil : loaded.image
            let cacheType = plan.context.originalStoreCacheType
            let validators = cacheType.includesDisk ? loaded.validators : nil
            stores.append { finished in
                plan.originalCache.storeImage(originalImage, data: data, forKey: plan.originalKey,
                                              cacheType: cacheType) { _ in
                    ValidatorStore.attach(validators, forKey: plan.originalKey, in: plan.originalCache, then: finished)
                }
            }
        }
        if plan.context.storeCacheType != .none {
            let bytes = storedBytes(plan, loaded, final: final)
            let validators = plan.context.storeCacheType.includesDisk ? loaded.validators : nil
            stores.append { finished in
                plan.cache.storeImage(final, data: bytes, forKey: plan.key, cacheType: plan.context.storeCacheType) { _ in
                    ValidatorStore.attach(validators, forKey: plan.key, in: plan.cache, then: finished)
                }
            }
        }
        pending.add(stores.count)
        for store in stores { store(done) }
        if waits {
            done()
        } else {
            deliverFinal(plan, operation, loaded, image: final)
        }
    }

    /// The bytes for the final image's disk entry: the serializer's, else the original bytes when they
    /// describe the final image (not transformed, not a thumbnail) or the bytes of the animation it was made
    /// from, else the image encoded here with the context's encode options (at ``ImageEncodeEffort/fastest``
    /// unless they set an effort) — on this (concurrent) thread rather than the cache's serial I/O queue.
    private func storedBytes(_ plan: LoadPlan, _ loaded: LoadedImage, final: Image) -> Data? {
        let describesFinal = !final.isTransformed && !final.isThumbnail ? loaded.data : nil
        if let serializer = plan.context.cacheSerializer, let bytes = serializer.data(final, describesFinal, plan.url) {
            return bytes
        }
        if let describesFinal = describesFinal ?? final.animatedImageData { return describesFinal }
        guard plan.context.storeCacheType.includesDisk else { return nil }
        let format = Self.storageFormat(for: final, coders: plan.coders)
        do {
            return try coding.timeEncode(as: format) {
                try plan.coders.encode(final, as: format,
                                       options: plan.context.encodeOptions.withDefaultEffort(.fastest))
            }
        } catch {
            // The cache then encodes with its default options, and reports if that fails too.
            let failure = error as? WebImageError ?? .encodingFailed(format: format, reason: "\(error)")
            logger.warning("cannot encode the final image for the disk cache",
                           metadata: ["url": "\(plan.url.absoluteString)", "code": "\(failure.code)",
                                      "error": "\(failure)"])
            return nil
        }
    }

    /// The format a final image without bytes is stored in: its own when encodable, else GIF for animations,
    /// PNG with alpha, JPEG when opaque (as ``ImageCache/encodingFormat(for:)``).
    static func storageFormat(for image: Image, coders: CodersManager) -> ImageFormat {
        if image.format != .undefined, coders.canEncode(to: image.format) { return image.format }
        if image.isAnimated { return .gif }
        return image.hasAlpha ? .png : .jpeg
    }

    /// The final delivery, with the animated form when asked for (failing if required and impossible).
    private func deliverFinal(_ plan: LoadPlan, _ operation: any LoadReceiving, _ loaded: LoadedImage,
                              image: Image) {
        // As SDWebImage: bytes that do not decode to the delivered image (a transformer's output, a thumbnail
        // of larger bytes) are not handed out, so a caller never saves a file that does not match the image.
        let dataDescribesImage = loaded.isFromFullKey || (!image.isTransformed && !image.isThumbnail)
        var outcome = ImageLoadOutcome(image: image, data: dataDescribesImage ? loaded.data : nil, error: nil,
                                       cacheType: loaded.cacheType, finished: true, url: plan.url)
        if plan.needsAnimatedImage {
            let animated = loaded.data.flatMap { data -> AnimatedImage? in
                guard let animated = try? AnimatedImage(data: data, scale: image.scale, options: plan.decodeOptions,
                                                        coders: plan.coders) else { return nil }
                if plan.options.contains(.preloadAllFrames) { try? animated.preloadAllFrames() }
                return animated
            }
            if animated == nil, plan.options.contains(.matchAnimatedImageClass) {
                operation.finish(.failure(.badImageData(.unsupportedFormat(image.format)), url: plan.url))
                return
            }
            outcome.animatedImage = animated
        }
        operation.finish(outcome)
    }
}
