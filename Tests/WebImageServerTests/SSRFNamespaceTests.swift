import Testing
import TestSupport

/// Signed requests through the real service (HTTP, the default strict policy) for every IPv6 form that embeds
/// the loopback origin's 127.0.0.1: each is refused (404, as imgproxy) and the origin never sees a request. The service
/// runs in a child process inside a network namespace with nothing but loopback (``ChildProcess/loopbackOnly``),
/// so a policy that let a form through could not send a packet past this machine.
@Suite struct SSRFNamespaceTests {
    static let forms = ["6to4", "6to4-host", "nat64-local-use", "nat64", "teredo-client", "mapped", "compatible",
                        "isatap", "isatap-link-local"]

    @Test func embeddedLoopbackFormsAreRefusedBeforeAnyConnection() async throws {
        let run = try await ChildProcess.loopbackOnly(try BuiltExecutable.url("SSRFNamespaceChild").path, arguments: [],
                                                  timeout: 300)
        #expect(run.exitedNormally && run.status == 0, "stderr: \(run.stderr.suffix(2000))")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for form in Self.forms {
            #expect(lines.contains("form \(form) status 404 origin 0"), "\(form): \(lines)")
        }
        // The origin answers in that namespace: the refusals are the policy's.
        #expect(lines.contains("control status 200"), "\(lines)")
        #expect(lines.last == "done")
    }
}
