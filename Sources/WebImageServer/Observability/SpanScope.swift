import Tracing

/// Runs work inside a span: a child of the task's current context, itself the current context while the work
/// runs (so spans made inside, and the headers sent to origins, name it as parent), ended when the work ends,
/// with a thrown error recorded. Under swift-distributed-tracing's no-op tracer this is a no-op span and a
/// task-local binding; callers set attributes only when ``Span/isRecording``.
enum SpanScope {
    static func run<Value, Failure: Error>(_ name: String, kind: SpanKind = .internal,
                                           _ body: (any Span) throws(Failure) -> Value) throws(Failure) -> Value {
        let span = startSpan(name, ofKind: kind)
        defer { span.end() }
        let result = InstrumentationContext.withValue(span.context) { () -> Result<Value, Failure> in
            do throws(Failure) { return .success(try body(span)) } catch { return .failure(error) }
        }
        if case .failure(let error) = result { span.recordError(error) }
        return try result.get()
    }

    static func run<Value, Failure: Error>(_ name: String, kind: SpanKind = .internal,
                                           isolation: isolated (any Actor)? = #isolation,
                                           _ body: (any Span) async throws(Failure) -> Value)
        async throws(Failure) -> Value {
        let span = startSpan(name, ofKind: kind)
        defer { span.end() }
        let result = await InstrumentationContext.withValue(span.context, isolation: isolation) {
            () async -> Result<Value, Failure> in
            do throws(Failure) { return .success(try await body(span)) } catch { return .failure(error) }
        }
        if case .failure(let error) = result { span.recordError(error) }
        return try result.get()
    }

    /// A cache lookup's span, with whether it hit.
    static func lookup<Value>(_ name: String, isolation: isolated (any Actor)? = #isolation,
                              _ body: () async -> Value?) async -> Value? {
        await run(name, isolation: isolation) { span in
            let value = await body()
            if span.isRecording { span.attributes[ImageProxySpans.Attribute.cacheHit] = value != nil }
            return value
        }
    }
}
