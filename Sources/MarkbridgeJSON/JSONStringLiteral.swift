/// JSON string literals for other writers (diagnostics as JSON Lines, batch records), with the
/// escaping markup JSON uses.
package enum JSONStringLiteral {
    public static func encode(_ text: String) -> String {
        var output = JSONOutput(capacity: text.utf8.count + 2)
        output.string(text)
        return String(decoding: output.finish(), as: UTF8.self)
    }
}
