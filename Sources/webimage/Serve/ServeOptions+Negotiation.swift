import WebImageServer

extension ServeOptions {
    /// `--negotiate-FORMAT` / `--no-negotiate-FORMAT`: whether Accept chooses `format` when the URL names none.
    static func negotiation(_ format: String, auto: [String],
                                    _ mode: WritableKeyPath<ImageProxyConfiguration.Negotiation,
                                                            ImageProxyConfiguration.Negotiation.Mode> & Sendable) -> ServeOption {
        let upper = format.uppercased()
        let on = ServeSettings.defaults.configuration.responses.negotiation[keyPath: mode] != .off
        return ServeOption(name: "negotiate-\(format)", variables: ["WEBIMAGE_NEGOTIATE_\(upper)"] + auto, kind: .invertible,
                           help: "Answer \(format) to clients that list it when the URL names no format "
                               + "(--no-negotiate-\(format): never). Default \(on ? "on" : "off").",
                           field: "configuration.responses.negotiation.\(format)") { settings, given in
            settings.configuration.responses.negotiation[keyPath: mode] = given.text == "true" ? .preferred : .off
        }
    }

    /// `--enforce-FORMAT`: Accept chooses `format` even over the URL's format (imgproxy's `IMGPROXY_ENFORCE_*`).
    static func enforcement(_ format: String,
                                    _ mode: WritableKeyPath<ImageProxyConfiguration.Negotiation,
                                                            ImageProxyConfiguration.Negotiation.Mode> & Sendable) -> ServeOption {
        let upper = format.uppercased()
        return ServeOption(name: "enforce-\(format)", variables: ["WEBIMAGE_ENFORCE_\(upper)", "IMGPROXY_ENFORCE_\(upper)"],
                           kind: .toggle,
                           help: "Answer \(format) to clients that list it even when the URL names another format"
                               + (format == "webp" ? "." : " (not for animations)."),
                           field: "configuration.responses.negotiation.\(format)") { settings, given in
            if given.text == "true" { settings.configuration.responses.negotiation[keyPath: mode] = .enforced }
        }
    }
}
