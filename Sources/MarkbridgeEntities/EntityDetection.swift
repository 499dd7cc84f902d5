import MarkbridgeIR

/// What to find in a document's text and mark up, so that a client can colour entities and make
/// them tappable without regular expressions of its own: hashtags (`HASHTAG`), mentions
/// (`MENTION`) and web addresses (`LINK`), by the rules in ``EntityScanner``.
///
/// Detection runs after a reader, on the IR, so it works the same on every input format. It
/// never looks inside code (a `CODE` markup or a code block), an existing link, or an existing
/// hashtag or mention, and it adds markups without changing the text.
public struct EntityDetection: Hashable, Sendable {
    /// The kinds of entity to find.
    public struct Kinds: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `#tag`: a `HASHTAG` markup over the `#` and the tag.
        public static let hashtags = Kinds(rawValue: 1)
        /// `@name`: a `MENTION` markup over the `@` and the name.
        public static let mentions = Kinds(rawValue: 2)
        /// `https://…`, `http://…` and `www.…`: a `LINK` markup, if the URL policy lets it through.
        public static let urls = Kinds(rawValue: 4)

        /// Each kind with its name on the command line, in the order help lists them.
        package static let named: [(name: String, kind: Kinds)] = [("hashtags", .hashtags), ("mentions", .mentions), ("urls", .urls)]

        /// Parses a comma-separated list of names (`hashtags,mentions,urls`).
        public init(list: String) throws(EntityDetectionError) {
            var kinds = Kinds()
            for item in list.split(separator: ",", omittingEmptySubsequences: false) {
                let name = item.filter { $0 != " " }
                guard let kind = Self.named.first(where: { $0.name == name })?.kind else {
                    let names = Self.named.map(\.name).joined(separator: ", ")
                    throw EntityDetectionError(message: "unknown entity kind '\(name)' (expected one of: \(names))")
                }
                kinds.insert(kind)
            }
            self = kinds
        }
    }

    public var kinds: Kinds
    /// Where a hashtag links to: with it, each hashtag also gets a `LINK` over the same range.
    public var hashtagLink: EntityLinkTemplate?
    /// Where a mention links to: with it, each mention also gets a `LINK` over the same range.
    public var mentionLink: EntityLinkTemplate?

    public init(kinds: Kinds, hashtagLink: EntityLinkTemplate? = nil, mentionLink: EntityLinkTemplate? = nil) {
        self.kinds = kinds
        self.hashtagLink = hashtagLink
        self.mentionLink = mentionLink
    }

    /// The schemes the link templates name, which the URL policy must let through for their
    /// links to reach output: the caller chose them, and a value can never change them.
    package var linkSchemes: Set<String> {
        Set([hashtagLink?.scheme, mentionLink?.scheme].compactMap { $0 })
    }
}

/// A detection option that cannot be used, with a message naming the option's value.
public struct EntityDetectionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    package init(message: String) {
        self.message = message
    }
}
