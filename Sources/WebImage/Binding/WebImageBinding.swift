import Foundation

/// Loads images into an ``ImageTarget`` (SDWebImage's `sd_setImageWithURL:` family); get it with `target.webImage`.
///
/// Per target and operation key (default: the target's type name) one load is current: a new load cancels
/// the previous one (unless ``WebImageOptions/avoidAutoCancelImage``), and a completion that is no longer
/// current never touches the target.
public struct WebImageBinding: Sendable {
    /// (image, error, cacheType, url) of the final result.
    public typealias CompletionHandler = @Sendable (_ image: Image?, _ error: WebImageError?,
                                                     _ cacheType: ImageCacheType, _ url: URL?) -> Void

    let target: any ImageTarget

    /// The URL of the latest load started on the target (nil before any, or after a nil URL).
    public var currentImageURL: URL? { TargetRegistry.existingState(for: target)?.currentURL }

    /// The latest load's progress; its fraction reaches 1 when the load finishes.
    public var progress: ImageLoadProgress { TargetRegistry.state(for: target).progress }

    /// Shows `placeholder`, then loads `url` and shows the result.
    ///
    /// - The placeholder is set at once unless ``WebImageOptions/delayPlaceholder`` (then only on failure).
    /// - Partial images (``WebImageOptions/progressiveLoad``) and the result are set unless
    ///   ``WebImageOptions/avoidAutoSetImage`` (then only `completed` gets them).
    /// - A download (or any load with ``WebImageOptions/forceTransition``) is shown through
    ///   ``ImageTarget/transition(to:cacheType:url:)``; cache hits are set directly.
    /// - `completed` runs once for the final result, also for stale loads (with what they got), but a stale
    ///   load never sets the target's image.
    public func setImage(with url: URL?, placeholder: Image? = nil, options: WebImageOptions = [],
                         context: WebImageContext = WebImageContext(), progress: ImageManager.ProgressHandler? = nil,
                         completed: CompletionHandler? = nil) {
        let target = self.target
        let state = TargetRegistry.state(for: target)
        let key = context.operationKey ?? String(describing: type(of: target))
        state.lock.lock()
        let (generation, previous) = state.begin(key: key, url: url)
        if !options.contains(.avoidAutoCancelImage) { previous?.cancel() }
        state.progress.reset()
        if !options.contains(.delayPlaceholder) { target.setImage(placeholder, cacheType: .none, url: url) }
        state.lock.unlock()
        let manager = context.customManager ?? .shared
        let operation = manager.loadImage(with: url, options: options, context: context, progress: { received, expected, url in
            if state.isCurrent(key: key, generation: generation) {
                state.progress.update(received: received, expected: expected)
            }
            progress?(received, expected, url)
        }, completed: { image, _, error, cacheType, finished, imageURL in
            state.lock.lock()
            defer { state.lock.unlock() }
            let isCurrent = state.isCurrent(key: key, generation: generation)
            guard finished else {
                if isCurrent, let image, !options.contains(.avoidAutoSetImage) {
                    target.setImage(image, cacheType: cacheType, url: imageURL)
                }
                return
            }
            if isCurrent {
                state.progress.complete()
                state.end(key: key, generation: generation)
                show(image, placeholder: placeholder, cacheType: cacheType, url: imageURL ?? url, options: options,
                     on: target)
            }
            completed?(image, error, cacheType, imageURL ?? url)
        })
        state.attach(operation, key: key, generation: generation)
    }

    /// ``setImage(with:placeholder:options:context:progress:completed:)`` for a URL string.
    public func setImage(with string: String?, placeholder: Image? = nil, options: WebImageOptions = [],
                         context: WebImageContext = WebImageContext(), progress: ImageManager.ProgressHandler? = nil,
                         completed: CompletionHandler? = nil) {
        setImage(with: string.flatMap(URL.init(string:)), placeholder: placeholder, options: options, context: context,
                 progress: progress, completed: completed)
    }

    /// Cancels the target's load under `operationKey` (default: the target's type name); its completion
    /// gets `cancelled` and the target keeps what it shows.
    public func cancelCurrentImageLoad(operationKey: String? = nil) {
        guard let state = TargetRegistry.existingState(for: target) else { return }
        state.cancel(key: operationKey ?? String(describing: type(of: target)))
    }

    private func show(_ image: Image?, placeholder: Image?, cacheType: ImageCacheType, url: URL?,
                      options: WebImageOptions, on target: any ImageTarget) {
        guard !options.contains(.avoidAutoSetImage) else { return }
        guard let image else {
            if options.contains(.delayPlaceholder) { target.setImage(placeholder, cacheType: .none, url: url) }
            return
        }
        if cacheType == .none || options.contains(.forceTransition) {
            target.transition(to: image, cacheType: cacheType, url: url)
        } else {
            target.setImage(image, cacheType: cacheType, url: url)
        }
    }
}
