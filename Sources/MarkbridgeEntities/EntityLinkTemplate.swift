/// A URL with a placeholder for an entity's value (`app://hashtag?tag={tag}`): the value,
/// percent-encoded as UTF-8 (every byte but RFC 3986's unreserved `A-Z a-z 0-9 - . _ ~`), takes
/// the placeholder's place, so no value can add a path, a query or a scheme of its own.
public struct EntityLinkTemplate: Hashable, Sendable {
    package let template: String
    package let placeholder: String
    /// The template's scheme, lower case.
    package let scheme: String

    /// Schemes no link template may name: they run script or reach local files.
    package static let refusedSchemes: Set<String> = ["javascript", "vbscript", "data", "file", "blob", "about"]

    /// A template that must hold `placeholder` (`{tag}`, `{name}`) and begin with a scheme.
    public init(_ template: String, placeholder: String) throws(EntityDetectionError) {
        guard template.contains(placeholder) else {
            throw EntityDetectionError(message: "'\(template)' has no \(placeholder) to put the value in")
        }
        let schemeEnd = template.utf8.firstIndex(of: UInt8(ascii: ":"))
        let scheme = schemeEnd.map { String(decoding: template.utf8[..<$0], as: UTF8.self).lowercased() } ?? ""
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
              scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }) else {
            throw EntityDetectionError(message: "'\(template)' is not an absolute URL (it needs a scheme, as in app://tag?t=\(placeholder))")
        }
        guard !Self.refusedSchemes.contains(scheme) else {
            throw EntityDetectionError(message: "'\(template)' uses the \(scheme): scheme, which is never linked to")
        }
        guard !template.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            throw EntityDetectionError(message: "'\(template)' holds a space or a control character")
        }
        self.template = template
        self.placeholder = placeholder
        self.scheme = scheme
    }

    /// The URL for one value.
    public func url(for value: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(digits[Int(byte >> 4)])
                encoded.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return template.replacing(placeholder, with: encoded)
    }
}
