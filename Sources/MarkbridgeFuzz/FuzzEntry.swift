@_spi(MarkbridgeBytes) import MarkbridgeBytes
import Markbridge
import MarkbridgeHTMLParser

/// libFuzzer's entry point: every reader gets the same bytes, and must answer with a document
/// or an error. A trap, an overflow or a hang is a finding. Built only by `.ci/fuzz`, with
/// `-sanitize=fuzzer,address`; the first byte picks the reader (or the attribute mode, see
/// ``AttributeRoundTrip``), so one corpus covers all.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size))
    let input = Array(bytes.dropFirst())
    let converter = Converter()
    switch bytes[0] % 5 {
    case 0:
        if let document = try? MarkupJSONReader().read(input).value { check(document, converter) }
    case 1:
        if let document = try? HTMLReader(options: .init(parser: .init(repairsInvalidUTF8: true))).read(input).value { check(document, converter) }
    case 2:
        if let document = try? MarkdownReader().read(input).value { check(document, converter) }
    case 3:
        _ = try? HTMLParser(options: .init(repairsInvalidUTF8: true)).parseDocument(input).value.html5libDump()
    default:
        AttributeRoundTrip.check(input)
    }
    return 0
}

/// Whatever a reader produced must hold the IR's invariants and go through every writer. This is
/// the fuzzer's oracle, not library code: stopping the process is how a finding is reported.
private func check(_ document: Document, _ converter: Converter) {
    if !document.invariantViolations().isEmpty { fatalError("invariant broken: \(document.invariantViolations())") }
    for format in ["json", "html", "markdown", "text"] { _ = try? converter.write(document, to: format) }
}
