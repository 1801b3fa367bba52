import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import WebImage
import WebImageRedis
import WebImageServer

/// The image service and the shared cache tier used as libraries, as an app would: `ImageProxy`'s routes
/// mounted in the app's own Hummingbird application beside a route of its own, one imgproxy-signed request
/// answered from a loopback origin, then (when `redis-server` is on PATH) a `RedisImageCache` behind a
/// `CachesManager` storing and reading back one image. Prints a line per step; exits 1 on any failure.
@main
enum ServiceConsumer {
    static func main() async {
        var logger = Logger(label: "ServiceConsumer")
        logger.logLevel = .warning
        do {
            let result = try await serveOneSignedRequest(logger: logger)
            let usedRedis = try await useTheSharedTier(storing: result.bytes, forKey: result.url)
            print("service consumer: all checks passed" + (usedRedis ? "" : " (the shared-tier step skipped)"))
        } catch {
            print("FAILED: \(error)")
            exit(1)
        }
    }

    /// Starts a loopback origin and the app (both Hummingbird, 127.0.0.1, free ports) in one service group,
    /// fetches one signed URL through the mounted proxy and checks the answer; answers the result's bytes and URL.
    static func serveOneSignedRequest(logger: Logger) async throws -> (bytes: Data, url: String) {
        // The origin's photo, made and encoded with the library.
        let width = 320, height = 240
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(x * 255 / width), UInt8(y * 255 / height), 160, 255]
            }
        }
        let pixels = PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes)
        let jpeg = try CodersManager.shared.encode(Image(pixels: pixels, hasAlpha: false), as: .jpeg,
                                                   options: ImageEncodeOptions(quality: 0.9))
        let origin = Router()
        origin.get("/photo.jpg") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "image/jpeg"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: jpeg)))
        }

        // The app: a route of its own, then every route of the image service. A private (loopback) origin is
        // allowed here only because this origin is one; production keeps the default SourcePolicy().
        let pair = try keyPair()
        let proxy = ImageProxy(configuration: ImageProxyConfiguration(
            signing: .init(keyPairs: [pair]), sources: .init(policy: SourcePolicy(allowsPrivateAddresses: true))))
        let app = Router()
        app.get("/hello") { _, _ in "hello from the consumer's own route\n" }
        proxy.addRoutes(to: app)

        let (ports, portsContinuation) = AsyncStream<(name: String, port: Int)>.makeStream()
        func application(_ name: String, _ router: Router<BasicRequestContext>) -> any Service {
            Application(router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { portsContinuation.yield((name, $0.localAddress?.port ?? 0)) },
                        logger: logger)
        }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [application("origin", origin), application("app", app)], logger: logger))
        let running = Task {
            defer { portsContinuation.finish() }
            try await group.run()
        }
        var port: [String: Int] = [:]
        for await started in ports {
            port[started.name] = started.port
            if port.count == 2 { break }
        }
        guard let originPort = port["origin"], let appPort = port["app"] else {
            try await running.value
            throw CheckFailed(description: "the origin and the app did not both start")
        }
        try check(true, "origin on http://127.0.0.1:\(originPort), app with ImageProxy's routes on http://127.0.0.1:\(appPort)")

        let base = "http://127.0.0.1:\(appPort)"
        let hello = try await get(base + "/hello")
        try check(hello.status == 200 && String(decoding: hello.body, as: UTF8.self).hasPrefix("hello"),
                  "the app's own route answers beside the proxy's (GET /hello: \(hello.status))")
        let health = try await get(base + "/health")
        try check(health.status == 200, "the proxy's /health answers 200 in the app")

        // imgproxy's URL: fill 120x80 from the origin's photo, as WebP, signed with the key and salt.
        let source = "http://127.0.0.1:\(originPort)/photo.jpg"
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let path = "/rs:fill:120:80/plain/\(source.addingPercentEncoding(withAllowedCharacters: unreserved) ?? source)@webp"
        let signed = URLSigner(keyPairs: [pair]).sign(path)
        let answer = try await get(base + signed)
        try check(answer.status == 200 && answer.contentType == "image/webp",
                  "signed GET \(signed.prefix(24))… answered \(answer.status) \(answer.contentType), \(answer.body.count) bytes")
        let result = try CodersManager.shared.decode(answer.body, options: ImageDecodeOptions())
        try check(result.format == .webp && result.pixelSize == PixelSize(width: 120, height: 80),
                  "the result decodes as a 120x80 WebP (got \(result.pixelSize) \(result.format))")

        // The same signature on another path is refused: the routes check what they sign.
        let signature = signed.dropFirst().prefix { $0 != "/" }
        let forged = try await get(base + "/\(signature)" + path.replacingOccurrences(of: "120:80", with: "121:80"))
        try check(forged.status == 403, "the signature over another path answers 403 (got \(forged.status))")

        await group.triggerGracefulShutdown()
        try await running.value
        await proxy.shutdown()
        try check(true, "the app and the origin stopped")
        return (answer.body, base + signed)
    }

    /// A random 32-byte key and 16-byte salt, as `--key`/`--salt` take them (hex).
    static func keyPair() throws -> URLSigner.KeyPair {
        func hex(_ count: Int) -> String {
            (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        }
        guard let pair = URLSigner.KeyPair(keyHex: hex(32), saltHex: hex(16)) else {
            throw CheckFailed(description: "the key pair was refused")
        }
        return pair
    }

    /// Status, `Content-Type` and the whole body of a GET.
    static func get(_ url: String) async throws -> (status: Int, contentType: String, body: Data) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), response.headers.first(name: "content-type") ?? "none",
                Data(body.readableBytesView))
    }

    /// Two instances' caches over one Redis: the first stores through its `CachesManager` (local and shared
    /// tiers at once), the second, with an empty local cache, reads the image back from Redis. Answers false,
    /// having said so, when there is no `redis-server` on PATH.
    static func useTheSharedTier(storing bytes: Data, forKey key: String) async throws -> Bool {
        guard let executable = RedisServer.executable() else {
            print("skipped: redis-server is not on PATH, so the shared-tier step did not run "
                  + "(Debian: apt-get install redis-server; Scripts/setup.sh installs it)")
            return false
        }
        let redis = try await RedisServer.start(executable: executable)
        defer { redis.stop() }
        try check(true, "redis-server \(executable) on 127.0.0.1:\(redis.port)")

        // A generous deadline: this machine may be busy building (the default is 50 ms).
        let configuration = RedisImageCache.Configuration(keyPrefix: "consumer:",
                                                          client: RedisClient.Configuration(deadline: .seconds(2)))
        let endpoint = RedisEndpoint(host: "127.0.0.1", port: redis.port)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("service-consumer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }

        // Lowest priority first: the shared tier last in line, the instance's own cache first.
        let sharedA = RedisImageCache(endpoints: [endpoint], configuration: configuration)
        let localA = ImageCache(namespace: "a", directory: root.appendingPathComponent("a"))
        let instanceA = CachesManager(caches: [sharedA, localA], policies: CachesManager.Policies(store: .concurrent))
        let image = try CodersManager.shared.decode(bytes, options: ImageDecodeOptions())
        try await instanceA.storeImage(image, data: bytes, forKey: key)
        let inRedis = await sharedA.containsImage(forKey: key), inLocal = await localA.containsImage(forKey: key)
        try check(inRedis == .disk && inLocal != .none,
                  "stored through a CachesManager into the local cache and Redis")

        let sharedB = RedisImageCache(endpoints: [endpoint], configuration: configuration)
        let localB = ImageCache(namespace: "b", directory: root.appendingPathComponent("b"))
        let instanceB = CachesManager(caches: [sharedB, localB])
        let hit = await instanceB.queryImage(forKey: key)
        try check(hit.cacheType == .disk && hit.data == bytes
                      && hit.image?.pixelSize == PixelSize(width: 120, height: 80),
                  "read back through another CachesManager from Redis: the same \(bytes.count) bytes, 120x80")

        await sharedA.close()
        await sharedB.close()
        redis.stop()
        try check(true, "redis-server stopped")
        return true
    }
}

struct CheckFailed: Error, CustomStringConvertible {
    let description: String
}

/// Prints `ok:` and the step, or throws it (main prints `FAILED:` and exits 1).
func check(_ condition: Bool, _ what: String) throws {
    guard condition else { throw CheckFailed(description: what) }
    print("ok: \(what)")
}
