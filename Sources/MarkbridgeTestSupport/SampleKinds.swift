import MarkbridgeIR

extension MarkupKind {
    /// A kind of each tag with plain attribute values, for tests that go over every tag: one
    /// exhaustive switch, so a new kind stops the build here rather than being skipped.
    public static func sample(_ tag: Tag) -> MarkupKind {
        switch tag {
        case .strong: .strong
        case .emphasis: .emphasis
        case .code: .code
        case .link: .link(LinkTarget(href: "https://example.com/"))
        case .strike: .strike
        case .underline: .underline
        case .superscript: .superscript
        case .subscript: .subscript
        case .highlight: .highlight
        case .color: .color(CSSColor(red: 255, green: 0, blue: 0))
        case .background: .background(CSSColor(red: 255, green: 0, blue: 0))
        case .image: .image(ImageSource(src: "https://example.com/a.png"))
        case .hashtag: .hashtag("sushi")
        case .mention: .mention("ana")
        }
    }
}
