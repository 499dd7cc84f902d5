import Foundation
import MarkbridgeIR

@available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
extension AttributeScopes {
    /// The attributes ``AttributedStringWriter`` sets (`string.markbridge.strong`, or
    /// `string[AttributeScopes.MarkbridgeAttributes.StrongAttribute.self]`), beside Foundation's
    /// own `link` and `imageURL`.
    public var markbridge: MarkbridgeAttributes.Type { MarkbridgeAttributes.self }

    /// What a document's markups and blocks become in an `AttributedString`. Inline attributes
    /// are set only where a markup is (a flag is `true` or absent); block attributes are on
    /// every character of a block and on the `"\n"` after it. Every key is codable: names are
    /// `markbridge.` and the markup JSON name or field they come from.
    public struct MarkbridgeAttributes: AttributeScope {
        /// `STRONG`: strong importance, shown bold.
        public let strong: StrongAttribute
        /// `EM`: emphasis, shown italic.
        public let emphasis: EmphasisAttribute
        /// `CODE`: inline code, shown monospaced.
        public let code: CodeAttribute
        /// `STRIKE`: struck through.
        public let strikethrough: StrikethroughAttribute
        /// `UNDERLINE`: underlined.
        public let underline: UnderlineAttribute
        /// `SUP`: raised.
        public let superscript: SuperscriptAttribute
        /// `SUB`: lowered.
        public let `subscript`: SubscriptAttribute
        /// `HIGHLIGHT`: marked text.
        public let highlight: HighlightAttribute
        /// `LINK`: the link's `href` as the document has it (Foundation's `link` holds it as a
        /// `URL` too, when it parses as one).
        public let linkHref: LinkHrefAttribute
        /// `COLOR`: the text color, `#RRGGBB` or `#RRGGBBAA`.
        public let textColor: TextColorAttribute
        /// `BACKGROUND`: the background color, `#RRGGBB` or `#RRGGBBAA`.
        public let backgroundColor: BackgroundColorAttribute
        /// `IMAGE`, or an `IMG` block: on the U+FFFC the image stands for.
        public let image: ImageAttribute
        /// `HASHTAG`: the tag, without its `#`, in NFC, over the `#` and the tag.
        public let hashtag: HashtagAttribute
        /// `MENTION`: the name, without its `@`, over the `@` and the name.
        public let mention: MentionAttribute
        /// The block's kind, as markup JSON names it (`P`, `H2`, `OLI`...).
        public let blockKind: BlockKindAttribute
        /// The block's index in ``Document/blocks``: two blocks of one kind side by side stay apart.
        public let blockIndex: BlockIndexAttribute
        /// How many list items enclose the block (``Block/depth``).
        public let depth: DepthAttribute
        /// How many quotes enclose the block (``Block/quoteDepth``).
        public let quoteDepth: QuoteDepthAttribute
        /// The block's alignment, when it has one.
        public let alignment: AlignmentAttribute
        /// In a table row, the index of the cell (in ``TableRow/cells``) the text is in; absent
        /// on the `" | "` between cells.
        public let tableCell: TableCellAttribute
        public let foundation: AttributeScopes.FoundationAttributes

        /// `true` where a markup is; absent elsewhere.
        public enum StrongAttribute: CodableAttributedStringKey { public typealias Value = Bool; public static let name = "markbridge.STRONG" }
        public enum EmphasisAttribute: CodableAttributedStringKey { public typealias Value = Bool; public static let name = "markbridge.EM" }
        public enum CodeAttribute: CodableAttributedStringKey { public typealias Value = Bool; public static let name = "markbridge.CODE" }
        public enum StrikethroughAttribute: CodableAttributedStringKey { public typealias Value = Bool; public static let name = "markbridge.STRIKE" }
        public enum UnderlineAttribute: CodableAttributedStringKey { public typealias Value = Bool; public static let name = "markbridge.UNDERLINE" }
        public enum SuperscriptAttribute: CodableAttributedStringKey { public typealias Value = Bool; public static let name = "markbridge.SUP" }
        public enum SubscriptAttribute: CodableAttributedStringKey { public typealias Value = Bool; public static let name = "markbridge.SUB" }
        public enum HighlightAttribute: CodableAttributedStringKey { public typealias Value = Bool; public static let name = "markbridge.HIGHLIGHT" }
        public enum LinkHrefAttribute: CodableAttributedStringKey { public typealias Value = String; public static let name = "markbridge.LINK" }
        public enum TextColorAttribute: CodableAttributedStringKey { public typealias Value = String; public static let name = "markbridge.COLOR" }
        public enum BackgroundColorAttribute: CodableAttributedStringKey { public typealias Value = String; public static let name = "markbridge.BACKGROUND" }
        public enum ImageAttribute: CodableAttributedStringKey { public typealias Value = ImageSource; public static let name = "markbridge.IMAGE" }
        public enum HashtagAttribute: CodableAttributedStringKey { public typealias Value = String; public static let name = "markbridge.HASHTAG" }
        public enum MentionAttribute: CodableAttributedStringKey { public typealias Value = String; public static let name = "markbridge.MENTION" }
        public enum BlockIndexAttribute: CodableAttributedStringKey { public typealias Value = Int; public static let name = "markbridge.block" }
        public enum DepthAttribute: CodableAttributedStringKey { public typealias Value = Int; public static let name = "markbridge.depth" }
        public enum QuoteDepthAttribute: CodableAttributedStringKey { public typealias Value = Int; public static let name = "markbridge.quoteDepth" }
        public enum TableCellAttribute: CodableAttributedStringKey { public typealias Value = Int; public static let name = "markbridge.cell" }

        /// Encoded as its markup JSON name.
        public enum BlockKindAttribute: CodableAttributedStringKey {
            public typealias Value = BlockKind.Tag
            public static let name = "markbridge.type"
            public static func encode(_ value: BlockKind.Tag, to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value.rawValue)
            }
            public static func decode(from decoder: any Decoder) throws -> BlockKind.Tag {
                let name = try decoder.singleValueContainer().decode(String.self)
                guard let tag = BlockKind.Tag(rawValue: name) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no block type \(name)"))
                }
                return tag
            }
        }

        /// Encoded as its CSS keyword.
        public enum AlignmentAttribute: CodableAttributedStringKey {
            public typealias Value = TextAlignment
            public static let name = "markbridge.alignment"
            public static func encode(_ value: TextAlignment, to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value.rawValue)
            }
            public static func decode(from decoder: any Decoder) throws -> TextAlignment {
                let name = try decoder.singleValueContainer().decode(String.self)
                guard let alignment = TextAlignment(rawValue: name) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no alignment \(name)"))
                }
                return alignment
            }
        }
    }
}

@available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
extension AttributeDynamicLookup {
    /// `string.strong`, `string.blockKind`...: the ``AttributeScopes/MarkbridgeAttributes`` by name.
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.MarkbridgeAttributes, T>) -> T {
        self[T.self]
    }
}
