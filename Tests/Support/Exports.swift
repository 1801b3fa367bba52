// The loopback HTTP server moved to the `LoopbackServer` library (`webimage-demo` serves from it too);
// tests and benchmarks keep importing `TestSupport`.
@_exported import LoopbackServer
