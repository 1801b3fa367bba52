import Foundation
import Testing
import TestSupport
@testable import WebImageServer

/// The operator page answers only the names its operator gave and its own addresses: a DNS-rebinding page, whose
/// requests carry its own site's name as `Host`, gets 421 and neither the page, the snapshot nor a signature.
@Suite struct OperatorHostTests {
    @Test func aForgedHostGetsNeitherThePageNorASignature() async throws {
        let page = OperatorPage(publicBaseURL: URL(string: "https://images.example.com"), signsURLs: true,
                                sampleInterval: .milliseconds(50))
        try await OperatorScene.with(page: page) { scene in
            let form = Data(#"{"source":"http://127.0.0.1:\#(scene.origin.port)/a.jpg","width":10}"#.utf8)
            let port = scene.metricsPort
            func answers(host: String) async throws -> [Int] {
                let hostHeader = [("Host", host)]
                return [
                    try await scene.metrics("/", headers: hostHeader).status,
                    try await scene.metrics("/operator/stats", headers: hostHeader).status,
                    try await scene.metrics("/operator/sign", post: form,
                                            headers: hostHeader + [("Content-Type", "application/json")]).status,
                ]
            }
            for forged in ["rebind.attacker.example:\(port)", "rebind.attacker.example", "127.0.0.1.nip.io:\(port)",
                           "[::1]:\(port)", "10.0.0.1:\(port)", "localhost.attacker.example:\(port)"] {
                #expect(try await answers(host: forged) == [421, 421, 421], "\(forged)")
            }
            let refused = try await scene.metrics("/operator/stats", headers: [("Host", "rebind.attacker.example")])
            #expect(refused.text.contains("--operator-base-url"))
            for admitted in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "images.example.com", "localhost."] {
                #expect(try await answers(host: admitted) == [200, 200, 200], "\(admitted)")
            }
            // Prometheus names its targets as it likes: /metrics holds no source URL and signs nothing.
            #expect(try await scene.metrics("/metrics", headers: [("Host", "webimage-metrics:\(port)")]).status == 200)
        }
    }

    @Test(arguments: [
        ("127.0.0.1", ["127.0.0.1:9090", "localhost:9090", "127.0.0.1"], ["[::1]:9090", "10.1.1.1", "evil.test:9090"]),
        ("0.0.0.0", ["10.1.1.1:9090", "[fd00::1]:9090", "localhost"], ["metrics.internal:9090", "evil.test"]),
        ("::", ["[::1]:9090", "192.0.2.7"], ["evil.test"]),
        ("metrics.internal", ["metrics.internal:9090", "METRICS.INTERNAL.", "localhost"], ["127.0.0.1", "evil.test"]),
    ])
    func hostsByListener(listener: String, admitted: [String], refused: [String]) {
        let hosts = OperatorHosts(listenerHost: listener, publicBaseURL: nil)
        for host in admitted { #expect(hosts.admits(host), "\(listener): \(host)") }
        for host in refused { #expect(!hosts.admits(host), "\(listener): \(host)") }
        #expect(!hosts.admits(nil) && !hosts.admits(""))
    }
}
