import Foundation

/// What loads must share to be run as one ``LoadFlight``: the same keys, options, caches, loader, coders and
/// decode, encode and cache settings, so that one cache query, download, decode and store gives each of them
/// exactly what it would have had alone.
struct LoadFlightKey: Hashable, Sendable {
    let key: String
    let originalKey: String
    let options: WebImageOptions
    let cache: ObjectIdentifier
    let originalCache: ObjectIdentifier
    let loader: ObjectIdentifier
    let coders: ObjectIdentifier
    let decodeOptions: ImageDecodeOptions
    let encodeOptions: ImageEncodeOptions
    let cacheTypes: [ImageCacheType]
    let totalDownloadTimeout: Duration?

    /// The key of `plan`; nil for a load that runs alone: one with `refreshCached` (each caller is owed the cached
    /// image before the revalidation, which a load joining later would miss), or whose context has a closure
    /// that shapes the request, the bytes or the stored data (closures cannot be compared).
    init?(_ plan: LoadPlan) {
        let context = plan.context
        guard !plan.options.contains(.refreshCached), context.requestModifier == nil, context.responseModifier == nil,
              context.decryptor == nil, context.cacheSerializer == nil else { return nil }
        key = plan.key
        originalKey = plan.originalKey
        options = plan.options
        cache = ObjectIdentifier(plan.cache)
        originalCache = ObjectIdentifier(plan.originalCache)
        loader = ObjectIdentifier(plan.loader)
        coders = ObjectIdentifier(plan.coders)
        decodeOptions = plan.decodeOptions
        encodeOptions = context.encodeOptions
        cacheTypes = [context.queryCacheType, context.storeCacheType, context.originalQueryCacheType,
                      context.originalStoreCacheType]
        totalDownloadTimeout = context.totalDownloadTimeout
    }
}
