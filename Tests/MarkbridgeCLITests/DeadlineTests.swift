import Foundation
import Testing
import Markbridge
import MarkbridgeTestSupport

/// Deadlines and cancellation stop every reader and writer part way, with a typed error, never
/// with a document or an output cut short.
@Suite("Conversions stop at a deadline or on cancellation", .serialized)
struct DeadlineTests {
    /// One generated document, large enough that every reader and writer passes many of its
    /// checks (a check every 1,024 tokens, nodes or events, every 64 blocks).
    static let document: Document = {
        var generator = DocumentGenerator(seed: 77, profile: .realistic)
        return generator.document(blockCount: 6_000)
    }()

    static func written(_ format: Format) throws -> [UInt8] {
        try Converter(options: .init(limits: .commandLine)).write(document, to: format).value
    }

    static let expired = ConversionDeadline(.now - .seconds(1))

    /// The error of `work` run under an expired deadline, nil if it finished.
    static func stopped(_ work: () throws(ConversionError) -> Void) -> ConversionError? {
        ConversionDeadline.$current.withValue(expired) { () -> ConversionError? in
            do throws(ConversionError) { try work() } catch { return error }
            return nil
        }
    }

    @Test("Every reader, used directly, stops at a deadline that has passed", arguments: ["html", "markdown", "json"])
    func readers(format name: String) throws {
        let format = try #require(FormatRegistry.standard.format(named: name))
        let input = try Self.written(format)
        // Without the deadline it reads; with it, it throws instead of finishing.
        #expect(throws: Never.self) { try Converter(options: .init(limits: .commandLine)).read(input, from: format) }
        let error = Self.stopped { () throws(ConversionError) in
            switch name {
            case "html": _ = try HTMLReader().read(input)
            case "markdown": _ = try MarkdownReader().read(input)
            default: _ = try MarkupJSONReader().read(input)
            }
        }
        #expect(error == ConversionError(code: "timeout", message: "conversion stopped: over its time limit"), "\(name)")
    }

    @Test("Every writer stops at a deadline that has passed", arguments: ["html", "markdown", "gfm", "json", "text"])
    func writers(format name: String) throws {
        let format = try #require(FormatRegistry.standard.format(named: name))
        let writer = try #require(format.writer)
        let error = Self.stopped { () throws(ConversionError) in _ = try writer(Self.document, .default) }
        #expect(error?.code == "timeout", "\(name)")
    }

    @Test("ConversionOptions.timeLimit: a conversion past it throws timeout, naming the limit; read and write share it")
    func timeLimit() throws {
        let input = try Self.written(.html)
        var options = ConversionOptions(limits: .commandLine)
        #expect(throws: Never.self) { try Converter(options: options).convert(input, from: .html, to: .markdown) }
        options.timeLimit = .zero
        #expect(throws: ConversionError(code: "timeout", message: "conversion stopped: over its time limit of 0 s")) {
            try Converter(options: options).convert(input, from: .html, to: .markdown)
        }
        // A deadline the caller bound, earlier than the limit, still holds.
        options.timeLimit = .seconds(60)
        let bound = ConversionDeadline.$current.withValue(ConversionDeadline(.now, limit: .milliseconds(1500))) { () -> ConversionError? in
            do throws(ConversionError) { _ = try Converter(options: options).check(input, from: .html, via: .markdown) } catch { return error }
            return nil
        }
        #expect(bound == ConversionError(code: "timeout", message: "conversion stopped: over its time limit of 1.5 s"))
        // A limit far off is never noticed.
        options.timeLimit = .seconds(3600)
        #expect(throws: Never.self) { try Converter(options: options).convert(input, from: .html, to: .markdown) }
    }

    @Test("A cancelled task stops its conversion with cancelled, whether cancelled before or during it")
    func cancellation() async throws {
        let input = try Self.written(.html)
        let converter = Converter(options: .init(limits: .commandLine))
        let before = Task { () -> ConversionError? in
            unsafe withUnsafeCurrentTask { unsafe $0?.cancel() }
            do throws(ConversionError) { _ = try converter.convert(input, from: .html, to: .markupJSON) } catch { return error }
            return nil
        }
        #expect(await before.value == ConversionError(code: "cancelled", message: "conversion stopped: its task was cancelled"))
        // A format with no reader is named as such before the deadline is looked at.
        let unreadable = Task { () -> ConversionError? in
            unsafe withUnsafeCurrentTask { unsafe $0?.cancel() }
            do throws(ConversionError) { _ = try converter.read(input, from: .writtenOnly) } catch { return error }
            return nil
        }
        #expect(await unreadable.value == ConversionError(code: "unknown-format", message: "format 'shout' cannot be read"))
        // During: a reader used directly has no check up front, so only its loops can stop it.
        let markdown = try Self.written(.markdown)
        let during = Task { () -> ConversionError? in
            unsafe withUnsafeCurrentTask { unsafe $0?.cancel() }
            do throws(ConversionError) { _ = try MarkdownReader().read(markdown) } catch { return error }
            return nil
        }
        #expect(await during.value?.code == "cancelled")
        // From outside, part way through a conversion many times longer than the wait.
        let large = Array(repeating: input, count: 20).flatMap { $0 }
        let running = Task { () -> ConversionError? in
            do throws(ConversionError) { _ = try converter.convert(large, from: .html, to: .markupJSON) } catch { return error }
            return nil
        }
        try await Task.sleep(for: .milliseconds(20))
        running.cancel()
        #expect(await running.value?.code == "cancelled")
    }
}
