import Testing
@testable import WebImageServer

/// Image paths skip the router's trie only where the trie resolves them to the `**` route (its other routes:
/// `/`, `/health`, `/ready`, `/info/**`; `/health/x` and `/info` are not found there, `//health` is `/health`).
@Suite struct ImageRouteResponderTests {
    @Test(arguments: ["/sig/rs:fit:256:256/plain/http%3A%2F%2Fa%2Fb.jpg@webp", "/_/w:20/plain/a", "/x", "/healthz",
                      "/HEALTH/x", "/information/x", "/readyz", "/**", "/sig?x=1"])
    func answeredAsTheImageRoute(path: String) {
        #expect(ImageRouteResponder.isImagePath(path))
    }

    @Test(arguments: ["/", "", "//health", "/health", "/health/x", "/ready", "/ready/", "/info", "/info/sig/w:1/plain/a",
                      "/é/x", "x/y"])
    func leftToTheRouter(path: String) {
        #expect(!ImageRouteResponder.isImagePath(path))
    }
}
