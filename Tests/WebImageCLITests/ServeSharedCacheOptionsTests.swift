import Foundation
import Testing
import WebImageRedis
@testable import webimage

/// `webimage serve --shared-cache …`: the Redis servers and the tier's settings, by flag or environment.
@Suite struct ServeSharedCacheOptionsTests {
    @Test func flagsAndTheirDefaults() throws {
        let settings = try ServeCommand.parse(["--allow-unsigned", "--shared-cache", "redis://10.0.0.5:6380/2",
                                               "--shared-cache", "redis://:pw@cache.internal"])
            .makeSettings(environment: ["WEBIMAGE_SHARED_CACHE": "redis://ignored:1"])
        let shared = try #require(settings.configuration.sharedCache)
        #expect(shared.endpoints == [RedisEndpoint(host: "10.0.0.5", port: 6380, database: 2),
                                     RedisEndpoint(host: "cache.internal", port: 6379, password: "pw")])
        #expect(shared.timeToLive == .seconds(604_800) && shared.deadline == .milliseconds(50))
        #expect(shared.breakerFailureThreshold == 3 && shared.breakerOpenDuration == .seconds(5))
        #expect(try ServeCommand.parse(["--allow-unsigned"]).makeSettings(environment: [:]).configuration.sharedCache == nil)
    }

    @Test func environmentVariables() throws {
        let environment = ["WEBIMAGE_SHARED_CACHE": "redis://a:7000, redis://b:7001/1", "WEBIMAGE_SHARED_CACHE_TTL": "60",
                           "WEBIMAGE_SHARED_CACHE_DEADLINE_MS": "20", "WEBIMAGE_SHARED_CACHE_BREAKER_FAILURES": "5",
                           "WEBIMAGE_SHARED_CACHE_BREAKER_SECONDS": "2"]
        let settings = try ServeCommand.parse(["--allow-unsigned", "--shared-cache-ttl", "120"])
            .makeSettings(environment: environment)
        let shared = try #require(settings.configuration.sharedCache)
        #expect(shared.endpoints.map(\.description) == ["redis://a:7000/0", "redis://b:7001/1"])
        #expect(shared.timeToLive == .seconds(120) && shared.deadline == .milliseconds(20))
        #expect(shared.breakerFailureThreshold == 5 && shared.breakerOpenDuration == .seconds(2))
    }

    @Test func badValuesNameTheFlag() throws {
        let cases: [([String], String)] = [
            (["--shared-cache", "http://a:1"],
             "webimage: --shared-cache: bad value 'http://a:1': give redis://[:PASSWORD@]HOST:PORT[/DB]"),
            (["--shared-cache", "redis://a:1", "--shared-cache-deadline-ms", "0"],
             "webimage: --shared-cache-deadline-ms: bad value '0': give a positive whole number"),
            (["--shared-cache", "redis://a:1", "--shared-cache-ttl", "soon"],
             "webimage: --shared-cache-ttl: bad value 'soon': give a positive whole number"),
        ]
        for (arguments, line) in cases {
            let failure = try #require(try Self.failure(arguments), "\(arguments)")
            #expect(failure.description == line)
        }
    }

    private static func failure(_ arguments: [String]) throws -> CLIFailure? {
        do {
            _ = try ServeCommand.parse(["--allow-unsigned"] + arguments).makeSettings(environment: [:])
            return nil
        } catch let failure as CLIFailure {
            return failure
        }
    }
}
