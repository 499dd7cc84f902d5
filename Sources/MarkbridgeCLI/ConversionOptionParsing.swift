import Markbridge

/// The reader and writer options every converting command takes (`convert`, `batch`), parsed
/// in one place so that they mean the same everywhere.
enum ConversionOptionParsing {
    static func options(_ parsed: ParsedArguments) throws(UsageError) -> ConversionOptions {
        // Files people chose, not uploads: the command line's limits.
        var options = ConversionOptions(limits: .commandLine)
        if let unit = parsed.value(ConvertCommand.offsets) {
            guard let parsedUnit = OffsetUnit(rawValue: unit) else {
                throw UsageError(message: "Unknown offset unit '\(unit)' (expected one of: utf16, scalar, utf8)")
            }
            options.offsetUnit = parsedUnit
        }
        if parsed.isSet(ConvertCommand.unsafeURLs) { options.urlPolicy = .unrestricted }
        if let base = parsed.value(ConvertCommand.baseURL) {
            guard URLPolicy.scheme(of: base) != nil else {
                throw UsageError(message: "--base-url must be an absolute URL, not '\(base)'")
            }
            options.baseURL = base
        }
        if let list = parsed.value(ConvertCommand.embedHosts) {
            // An empty list is a choice too: no host at all.
            let hosts = list.split(separator: ",").map { String($0.filter { $0 != " " }).lowercased() }
            if let bad = hosts.first(where: { !URLPolicy.isEmbedHostPattern($0) }) {
                throw UsageError(message: "--embed-hosts takes host names and *.suffix patterns, not '\(bad)'")
            }
            options.embedHosts = Set(hosts)
        }
        options.repairsInvalidUTF8 = parsed.isSet(ConvertCommand.lossy)
        if let policy = parsed.value(ConvertCommand.markdownHTML) {
            guard let parsedPolicy = MarkdownWriter.HTMLPolicy(rawValue: policy) else {
                throw UsageError(message: "Unknown policy '\(policy)' for --markdown-html (expected one of: keep, drop)")
            }
            options.markdownHTML = parsedPolicy
        }
        if let policy = parsed.value(ConvertCommand.unknownElements) {
            guard let parsedPolicy = HTMLReader.UnknownElementPolicy(rawValue: policy) else {
                throw UsageError(message: "Unknown policy '\(policy)' for --unknown-elements (expected one of: unwrap, drop)")
            }
            options.unknownElements = parsedPolicy
        }
        options.entityDetection = try entityDetection(parsed)
        return options
    }

    /// `--detect` with its link templates; a template without the kind it links is refused,
    /// since it would silently do nothing.
    private static func entityDetection(_ parsed: ParsedArguments) throws(UsageError) -> EntityDetection? {
        let hashtagURL = parsed.value(ConvertCommand.hashtagURL), mentionURL = parsed.value(ConvertCommand.mentionURL)
        guard let list = parsed.value(ConvertCommand.detect) else {
            if hashtagURL != nil || mentionURL != nil {
                throw UsageError(message: "--\(hashtagURL != nil ? "hashtag" : "mention")-url needs --detect \(hashtagURL != nil ? "hashtags" : "mentions")")
            }
            return nil
        }
        do throws(EntityDetectionError) {
            var detection = EntityDetection(kinds: try EntityDetection.Kinds(list: list))
            if let hashtagURL {
                guard detection.kinds.contains(.hashtags) else { throw EntityDetectionError(message: "--hashtag-url needs hashtags in --detect") }
                detection.hashtagLink = try EntityLinkTemplate(hashtagURL, placeholder: "{tag}")
            }
            if let mentionURL {
                guard detection.kinds.contains(.mentions) else { throw EntityDetectionError(message: "--mention-url needs mentions in --detect") }
                detection.mentionLink = try EntityLinkTemplate(mentionURL, placeholder: "{name}")
            }
            return detection
        } catch {
            throw UsageError(message: "--detect: \(error.message)")
        }
    }

    /// Their specs, in the order help lists them.
    static let specs = [ConvertCommand.offsets, ConvertCommand.unsafeURLs, ConvertCommand.baseURL, ConvertCommand.embedHosts, ConvertCommand.unknownElements,
                        ConvertCommand.lossy, ConvertCommand.markdownHTML,
                        ConvertCommand.detect, ConvertCommand.hashtagURL, ConvertCommand.mentionURL]
}
