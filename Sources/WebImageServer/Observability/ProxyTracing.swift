import Tracing

/// Where the service's spans go: the tracer bootstrapped when the proxy was made (bootstrap first, as for metrics),
/// or nil under swift-distributed-tracing's no-op tracer. Then a span costs nothing: no global tracer lookup (a lock
/// and a cast, about 0.4 µs each time), no context binding, no attribute; the work gets a no-op span.
///
/// A span runs the work as a child of the task's current context and is itself the current context while the
/// work runs (so spans made inside, and the headers sent to origins, name it as parent); it ends when the work ends,
/// with a thrown error recorded. Callers set attributes only when ``Span/isRecording``.
struct ProxyTracing: Sendable {
    let tracer: (any Tracer)?

    init(_ tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer is NoOpTracer ? nil : tracer
    }

    /// What work gets when tracing is off.
    private static let off = NoOpTracer.NoOpSpan(context: .topLevel)

    func run<Value, Failure: Error>(_ name: String, kind: SpanKind = .internal,
                                    _ body: (any Span) throws(Failure) -> Value) throws(Failure) -> Value {
        guard let tracer else { return try body(Self.off) }
        let span = tracer.startSpan(name, context: InstrumentationContext.current ?? .topLevel, ofKind: kind)
        defer { span.end() }
        let result = InstrumentationContext.withValue(span.context) { () -> Result<Value, Failure> in
            do throws(Failure) { return .success(try body(span)) } catch { return .failure(error) }
        }
        if case .failure(let error) = result { span.recordError(error) }
        return try result.get()
    }

    func run<Value, Failure: Error>(_ name: String, kind: SpanKind = .internal,
                                    isolation: isolated (any Actor)? = #isolation,
                                    _ body: (any Span) async throws(Failure) -> Value) async throws(Failure) -> Value {
        guard let tracer else { return try await body(Self.off) }
        let span = tracer.startSpan(name, context: InstrumentationContext.current ?? .topLevel, ofKind: kind)
        defer { span.end() }
        let result = await InstrumentationContext.withValue(span.context, isolation: isolation) {
            () async -> Result<Value, Failure> in
            do throws(Failure) { return .success(try await body(span)) } catch { return .failure(error) }
        }
        if case .failure(let error) = result { span.recordError(error) }
        return try result.get()
    }

    /// A cache lookup's span, with whether it hit.
    func lookup<Value>(_ name: String, isolation: isolated (any Actor)? = #isolation,
                       _ body: () async -> Value?) async -> Value? {
        await run(name, isolation: isolation) { span in
            let value = await body()
            if span.isRecording { span.attributes[ImageProxySpans.Attribute.cacheHit] = value != nil }
            return value
        }
    }
}
