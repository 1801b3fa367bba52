import Foundation

extension ServeOptions {
    /// imgproxy's S3 sources (`IMGPROXY_USE_S3` and the store's settings) and the result store in the same store,
    /// joined by ``ServeSettings/finish()``.
    static let s3: [ServeOption] = [
        .invertible("use-s3", ["WEBIMAGE_USE_S3", "IMGPROXY_USE_S3"],
                    "Serve s3://BUCKET/KEY[?VERSION] sources from an S3-compatible store, signed with AWS SigV4 "
                        + "(needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY). Default off.",
                    field: "configuration.sources.s3", \.s3.enabled),
        ServeOption(name: "s3-endpoint", variables: ["WEBIMAGE_S3_ENDPOINT", "IMGPROXY_S3_ENDPOINT"], kind: .value("URL"),
                    help: "The store's http(s) URL (MinIO, Ceph RGW, R2 …); the address policy does not apply to it. "
                        + "Default AWS's https://s3.REGION.amazonaws.com.", field: "configuration.sources.s3.endpoint") { settings, given in
            guard let url = URL(string: given.text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                  url.host?.isEmpty == false else { throw given.failure("give an http or https URL") }
            settings.s3.endpoint = url
        },
        ServeOption(name: "s3-region", variables: ["WEBIMAGE_S3_REGION", "IMGPROXY_S3_REGION", "AWS_REGION"],
                    kind: .value("REGION"), help: "The region requests are signed for. Default us-east-1.",
                    field: "configuration.sources.s3.region") { settings, given in
            settings.s3.region = given.text
        },
        .invertible("s3-path-style", ["WEBIMAGE_S3_PATH_STYLE", "IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE"],
                    "ENDPOINT/BUCKET/KEY; --no-s3-path-style asks BUCKET.ENDPOINT/KEY. Default on.",
                    field: "configuration.sources.s3.usesPathStyle", \.s3.usesPathStyle),
        ServeOption(name: "s3-access-key-id", variables: ["WEBIMAGE_S3_ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID"],
                    kind: .value("ID"), help: "The store's access key id. Default: none.",
                    field: "configuration.sources.s3.credentials.accessKeyID") { settings, given in
            settings.s3.accessKeyID = given.text
        },
        ServeOption(name: "s3-secret-access-key", variables: ["WEBIMAGE_S3_SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY"],
                    kind: .value("SECRET"), help: "The store's secret key (prefer the variable: flags show in ps). Default: none.",
                    field: "configuration.sources.s3.credentials.secretAccessKey") { settings, given in
            settings.s3.secretAccessKey = given.text
        },
        ServeOption(name: "s3-session-token", variables: ["WEBIMAGE_S3_SESSION_TOKEN", "AWS_SESSION_TOKEN"],
                    kind: .value("TOKEN"), help: "A temporary key's session token. Default: none.",
                    field: "configuration.sources.s3.credentials.sessionToken") { settings, given in
            settings.s3.sessionToken = given.text
        },
        ServeOption(name: "result-store", variables: ["WEBIMAGE_RESULT_STORE"], kind: .value("s3://BUCKET/PREFIX"),
                    help: "Keep results in this bucket of the S3 store (the --s3-* settings and key; S3 sources need "
                        + "not be on), shared by instances and kept across restarts; asked after memory, disk and "
                        + "the shared cache. Default: none.", field: "configuration.caches.resultStore") { settings, given in
            (settings.s3.resultStore.bucket, settings.s3.resultStore.prefix) = try S3Settings.resultStoreLocation(given)
        },
        .duration("result-store-ttl", ["WEBIMAGE_RESULT_STORE_TTL"],
                  "How long a stored result is used, in seconds (an object past it is a miss; a bucket lifecycle rule "
                      + "deletes them).", field: "configuration.caches.resultStore.timeToLive", \.s3.resultStore.timeToLive),
        .duration("result-store-deadline-ms", ["WEBIMAGE_RESULT_STORE_DEADLINE_MS"],
                  "Most one result-store read may take, in milliseconds (a write: ten times as long).",
                  field: "configuration.caches.resultStore.deadline", \.s3.resultStore.deadline, unit: .milliseconds(1)),
        .number("result-store-breaker-failures", ["WEBIMAGE_RESULT_STORE_BREAKER_FAILURES"],
                "Failures in a row that stop calls to the result store.",
                field: "configuration.caches.resultStore.breakerFailureThreshold", \.s3.resultStore.breakerFailureThreshold),
        .duration("result-store-breaker-seconds", ["WEBIMAGE_RESULT_STORE_BREAKER_SECONDS"],
                  "How long result-store calls stay stopped before one trial, in seconds.",
                  field: "configuration.caches.resultStore.breakerOpenDuration", \.s3.resultStore.breakerOpenDuration),
        .number("result-store-max-pending-writes", ["WEBIMAGE_RESULT_STORE_MAX_PENDING_WRITES"],
                "Result-store writes under way at once; more are dropped.",
                field: "configuration.caches.resultStore.maxPendingWrites", \.s3.resultStore.maxPendingWrites, minimum: 0),
        .number("result-store-max-entry-bytes", ["WEBIMAGE_RESULT_STORE_MAX_ENTRY_BYTES"],
                "Largest result written to the result store.", field: "configuration.caches.resultStore.maxEntryBytes",
                \.s3.resultStore.maxEntryBytes, maximum: 512 << 20),
    ]
}
