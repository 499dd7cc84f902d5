/// The namespace prefix of an attribute the parser adjusted for foreign content (`xlink:href`),
/// or the mark the tree puts on a doctype identifier that is missing rather than empty.
enum HTMLAttributePrefix: UInt8, Sendable {
    case none, xlink, xml, xmlns, missing

    init(name: String?) {
        switch name {
        case nil: self = .none
        case "xlink": self = .xlink
        case "xml": self = .xml
        case "xmlns": self = .xmlns
        case "missing": self = .missing
        case let name?: preconditionFailure("the parser makes no attribute prefix \(name)")
        }
    }

    var name: String? {
        switch self {
        case .none: nil
        case .xlink: "xlink"
        case .xml: "xml"
        case .xmlns: "xmlns"
        case .missing: "missing"
        }
    }
}

/// A tag's attributes as the tokenizer reads them: every name and value as bytes of one buffer.
/// A tag costs one object however many attributes it has (none without any), where a `String`
/// per name and value and an array of them cost the tokenizer more than the rest of the tag;
/// the tree copies the buffer as it stands, and only attributes a reader asks for become
/// strings. One reference, so that copying a token (tree construction passes tokens around
/// by value) costs one retain at most.
struct HTMLTokenAttributes: Sendable {
    struct Entry: Sendable, Equatable {
        /// The name is `bytes[nameStart..<valueStart]`, the value `bytes[valueStart..<valueEnd]`.
        var nameStart: Int32
        var valueStart: Int32
        var valueEnd: Int32
        var prefix: HTMLAttributePrefix
    }

    private final class Storage: Sendable {
        let bytes: [UInt8]
        let entries: [Entry]

        init(bytes: [UInt8], entries: [Entry]) {
            self.bytes = bytes
            self.entries = entries
        }
    }

    private let storage: Storage?

    init() {
        storage = nil
    }

    fileprivate init(bytes: [UInt8], entries: [Entry]) {
        storage = entries.isEmpty ? nil : Storage(bytes: bytes, entries: entries)
    }

    init(_ list: [HTMLAttribute]) {
        var builder = Builder()
        for attribute in list {
            let nameStart = builder.end
            builder.append(contentsOf: attribute.name.utf8)
            let valueStart = builder.end
            builder.append(contentsOf: attribute.value.utf8)
            builder.commit(nameStart: nameStart, valueStart: valueStart, prefix: HTMLAttributePrefix(name: attribute.prefix))
        }
        self = builder.take()
    }

    var bytes: [UInt8] { storage?.bytes ?? [] }
    var entries: [Entry] { storage?.entries ?? [] }
    var isEmpty: Bool { storage == nil }
    var count: Int { storage?.entries.count ?? 0 }

    func name(at index: Int) -> ArraySlice<UInt8> {
        guard let storage else { return [] }
        return storage.bytes[Int(storage.entries[index].nameStart)..<Int(storage.entries[index].valueStart)]
    }

    func value(at index: Int) -> ArraySlice<UInt8> {
        guard let storage else { return [] }
        return storage.bytes[Int(storage.entries[index].valueStart)..<Int(storage.entries[index].valueEnd)]
    }

    /// The value of the attribute with no prefix called `wantedName` (lower-case ASCII), if any.
    func value(named wantedName: String) -> ArraySlice<UInt8>? {
        guard let storage else { return nil }
        for index in storage.entries.indices where storage.entries[index].prefix == .none && name(at: index).elementsEqual(wantedName.utf8) {
            return value(at: index)
        }
        return nil
    }

    /// The attributes as the public type, in source order.
    var list: [HTMLAttribute] {
        (0..<count).map { index in
            HTMLAttribute(prefix: entries[index].prefix.name,
                          name: String(decoding: name(at: index), as: UTF8.self),
                          value: String(decoding: value(at: index), as: UTF8.self))
        }
    }

    /// The same attributes, in any order (the Noah's Ark clause compares them so). Names are
    /// unique within a tag, so equal counts and every attribute of one found in the other is
    /// equality; a set keeps it linear for an element with thousands of attributes.
    func hasSameAttributes(as other: HTMLTokenAttributes) -> Bool {
        guard count == other.count else { return false }
        guard let storage, let otherStorage = other.storage else { return true }
        if storage === otherStorage || storage.bytes == otherStorage.bytes && storage.entries == otherStorage.entries { return true }
        return Set(list) == Set(other.list)
    }

    /// Where the tokenizer collects a tag's attributes, one after another.
    struct Builder {
        private(set) var bytes: [UInt8] = []
        private(set) var entries: [Entry] = []

        var count: Int { entries.count }
        /// Where the next bytes go: the start of the next attribute's name or value.
        var end: Int { bytes.count }

        /// Calls `body` with the bytes in `range`, borrowed.
        func withBytes<Result>(_ range: Range<Int>, _ body: (Span<UInt8>) -> Result) -> Result {
            body(bytes.span.extracting(range))
        }

        mutating func append(_ byte: UInt8) { bytes.append(byte) }
        mutating func append(contentsOf more: some Collection<UInt8>) { bytes.append(contentsOf: more) }

        /// Records the attribute whose name began at `nameStart` and whose value began at
        /// `valueStart`, running to the end of the buffer.
        mutating func commit(nameStart: Int, valueStart: Int, prefix: HTMLAttributePrefix = .none) {
            entries.append(Entry(nameStart: Int32(nameStart), valueStart: Int32(valueStart),
                                 valueEnd: Int32(bytes.count), prefix: prefix))
        }

        /// Drops the bytes from `end` on: an attribute that is not kept (a repeated name).
        mutating func truncate(to end: Int) {
            bytes.removeSubrange(end...)
        }

        /// Empties the builder for the next tag, keeping its buffers when no token took them.
        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
        }

        /// The attributes collected, for a token; the builder starts again empty.
        mutating func take() -> HTMLTokenAttributes {
            guard !entries.isEmpty else {
                if !bytes.isEmpty { removeAll() }
                return HTMLTokenAttributes()
            }
            defer { self = Builder() }
            return HTMLTokenAttributes(bytes: bytes, entries: entries)
        }
    }
}
