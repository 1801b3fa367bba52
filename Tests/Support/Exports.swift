// The loopback HTTP server moved to the `LoopbackServer` library (the `webimage demo` serves from it too);
// tests and benchmarks keep importing `TestSupport`.
@_exported import LoopbackServer
