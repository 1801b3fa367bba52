import WebImageCore

/// The current ``WorkCancellation`` as a C callback and its context, for the C shims and libraries that poll
/// through a function pointer (libjpeg's progress monitor in CJPEGShim, libpng's row loop in CPNGShim).
///
/// The context is the token unretained: the scope that bound it as ``WorkCancellation/current`` holds it for
/// longer than any decode run inside it.
enum CancellationHook {
    /// Nonzero when the token passed as `context` says the work should stop (the check is counted).
    static var poll: @convention(c) (UnsafeMutableRawPointer?) -> Int32 {
        { context in
            guard let context else { return 0 }
            return Unmanaged<WorkCancellation>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
        }
    }

    /// The current token as a context for ``poll``; nil outside any cancellation scope.
    static var currentContext: UnsafeMutableRawPointer? {
        WorkCancellation.current.map { Unmanaged.passUnretained($0).toOpaque() }
    }
}
