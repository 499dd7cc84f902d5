@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// The WHATWG HTML tokenizer over normalised UTF-8 bytes (no CR, valid UTF-8).
///
/// All the characters the standard's states look at are ASCII, so the machine runs on bytes and
/// passes every non-ASCII byte through as "anything else". It is a pull tokenizer: the tree
/// builder calls `next()`, and may switch `state` (to RCDATA, RAWTEXT, script data, PLAINTEXT)
/// and `allowsCDATA` between calls, as the standard has tree construction do.
struct HTMLTokenizer {
    typealias State = HTMLTokenizerState

    let input: [UInt8]
    var position = 0
    var state: State = .data
    /// Whether `<![CDATA[` opens a CDATA section: true when the adjusted current node is foreign.
    var allowsCDATA = false
    /// The last start tag emitted, for "appropriate end tag" checks: its tag, and its name's
    /// bytes only when the tag is unknown (copying every name would cost every tag).
    var lastStartTag: HTMLTag?
    var lastStartTagUnknownName: [UInt8] = []

    /// The pending character run; the `.characters` token refers to it. Text with nothing
    /// decoded in it stays a range of the input, not copied.
    var characters: ArraySlice<UInt8> { pendingCharacters.bytes(in: input) }
    private var pendingCharacters = InputBackedBytes()
    /// The pending character run's range in the input, when it is one (no reference decoded).
    var charactersInputRange: Range<Int>? { pendingCharacters.inputRange }
    var hasPendingCharacters: Bool { !pendingCharacters.isEmpty }
    /// Offset where the pending character run began.
    var charactersOffset = 0
    var charactersDelivered = false

    var tokenOffset = 0
    /// The current tag's name, lower case: a range of the input while the name is written
    /// there in lower case already (the usual case), else a copy.
    var tagName: ArraySlice<UInt8> { pendingTagName.bytes(in: input) }
    private var pendingTagName = InputBackedBytes()
    var isEndTag = false
    var isSelfClosing = false
    /// The current tag's attributes, the one being read last, its bytes not yet committed.
    var attributes = HTMLTokenAttributes.Builder()
    /// The current tag's attribute names so far, to drop a repeated one.
    var attributeNames = DistinctNames()
    /// Where the attribute being read begins in `attributes`, and where its value begins.
    var attributeNameStart = 0
    var attributeValueStart = 0
    var attributeIsDuplicate = false
    var commentData: [UInt8] = []
    var doctypeName: [UInt8]?
    var doctypePublicID: [UInt8]?
    var doctypeSystemID: [UInt8]?
    var doctypeForceQuirks = false
    var temporaryBuffer: [UInt8] = []

    /// Tokens emitted and not yet returned: at most a character run, a token and end of file.
    var charactersQueued = false
    var queuedToken: HTMLToken?
    var queuedEndOfFile = false
    var reachedEnd = false

    init(input: [UInt8]) {
        self.input = input
    }

    /// The next token. After `.endOfFile`, keeps returning `.endOfFile`.
    mutating func next() -> HTMLToken {
        if charactersDelivered {
            pendingCharacters.removeAll()
            charactersDelivered = false
        }
        while true {
            if charactersQueued {
                charactersQueued = false
                charactersDelivered = true
                return .characters
            }
            if let token = queuedToken {
                queuedToken = nil
                return token
            }
            if queuedEndOfFile || reachedEnd {
                queuedEndOfFile = false
                reachedEnd = true
                return .endOfFile
            }
            step()
        }
    }

    // MARK: Emitting

    /// Emits a token, delivering any pending characters first. A step emits at most a
    /// character run, one token and the end of the file, in that order, so three slots do.
    mutating func emit(_ token: HTMLToken) {
        if hasPendingCharacters && !charactersDelivered { charactersQueued = true }
        if case .endOfFile = token {
            queuedEndOfFile = true
        } else {
            queuedToken = token
        }
    }

    @inline(__always)
    mutating func emitCharacter(_ byte: UInt8) {
        if !hasPendingCharacters { charactersOffset = position }
        pendingCharacters.append(byte, of: input)
    }

    mutating func markCharactersStart(_ offset: Int) { charactersOffset = offset }

    mutating func appendCharacters(_ range: Range<Int>) {
        pendingCharacters.append(range, of: input)
    }

    mutating func emitCharacters(_ bytes: some Collection<UInt8>) {
        if !hasPendingCharacters { charactersOffset = position }
        pendingCharacters.append(contentsOf: bytes, of: input)
    }

    mutating func emitReplacementCharacter() {
        emitCharacters(Self.replacementCharacter)
    }

    static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    mutating func emitEndOfFile() {
        emit(.endOfFile)
    }

    // MARK: Tags

    mutating func startTag(isEnd: Bool) {
        pendingTagName.removeAll()
        isEndTag = isEnd
        isSelfClosing = false
        hasOpenAttribute = false
        if attributes.end > 0 { attributes.removeAll() }
        attributeNames.removeAll()
    }

    mutating func appendToTagName(_ byte: UInt8) {
        pendingTagName.append(Self.lowercased(byte), of: input)
    }

    mutating func appendReplacementToTagName() {
        pendingTagName.append(contentsOf: Self.replacementCharacter, of: input)
    }

    /// Adds input bytes already in lower case to the name.
    mutating func appendToTagName(_ range: Range<Int>) {
        pendingTagName.append(range, of: input)
    }

    mutating func startAttribute() {
        finishAttribute()
        attributeNameStart = attributes.end
        attributeValueStart = -1
        attributeIsDuplicate = false
        hasOpenAttribute = true
    }

    var hasOpenAttribute = false

    /// When the name is complete: a repeated name is a parse error, and the later one is dropped.
    mutating func checkDuplicateAttribute() {
        attributeValueStart = attributes.end
        attributeIsDuplicate = !attributes.withBytes(attributeNameStart..<attributeValueStart) { attributeNames.insert($0) }
    }

    mutating func finishAttribute() {
        guard hasOpenAttribute else { return }
        hasOpenAttribute = false
        // A name that ended with the input is complete here.
        if attributeValueStart < 0 { checkDuplicateAttribute() }
        if attributeIsDuplicate {
            attributes.truncate(to: attributeNameStart)
            return
        }
        attributes.commit(nameStart: attributeNameStart, valueStart: attributeValueStart)
    }

    mutating func appendToAttributeName(_ byte: UInt8) { attributes.append(Self.lowercased(byte)) }
    mutating func appendToAttributeName(_ bytes: [UInt8]) { attributes.append(contentsOf: bytes) }
    mutating func appendToAttributeValue(_ byte: UInt8) { attributes.append(byte) }
    mutating func appendToAttributeValue(_ bytes: some Collection<UInt8>) { attributes.append(contentsOf: bytes) }

    mutating func emitTag() {
        finishAttribute()
        let tag = pendingTagName.withBytes(in: input) { HTMLTagLookup.tag(for: $0) }
        let customName = tag == .unknown ? String(decoding: pendingTagName.bytes(in: input), as: UTF8.self) : nil
        // The token takes the buffers; the next tag starts new ones (an end tag's attributes
        // are dropped, as the standard says).
        let tagAttributes = isEndTag ? HTMLTokenAttributes() : attributes.take()
        let token = HTMLTagToken(tag: tag, customName: customName, attributes: tagAttributes,
                                 isSelfClosing: isSelfClosing, offset: tokenOffset)
        if isEndTag {
            emit(.endTag(token))
        } else {
            lastStartTag = tag
            if tag == .unknown {
                lastStartTagUnknownName.removeAll(keepingCapacity: true)
                lastStartTagUnknownName.append(contentsOf: tagName)
            }
            emit(.startTag(token))
        }
    }

    mutating func setSelfClosing() { isSelfClosing = true }

    /// Sets the last start tag by name (the tokenizer tests start in a state "after" one).
    mutating func setLastStartTag(_ name: [UInt8]) {
        lastStartTag = HTMLTagLookup.tag(for: name[...])
        lastStartTagUnknownName = lastStartTag == .unknown ? name : []
    }

    var isAppropriateEndTag: Bool {
        guard let lastStartTag else { return false }
        let name = tagName
        let tag = HTMLTagLookup.tag(for: name)
        return tag == lastStartTag && (tag != .unknown || name.elementsEqual(lastStartTagUnknownName))
    }

    // MARK: Comments and doctypes

    mutating func startComment(_ initial: [UInt8] = []) {
        commentData = initial
    }

    mutating func appendToComment(_ byte: UInt8) { commentData.append(byte) }
    mutating func appendToComment(_ bytes: [UInt8]) { commentData.append(contentsOf: bytes) }

    mutating func emitComment() {
        emit(.comment(commentData, offset: tokenOffset))
    }

    mutating func startDoctype() {
        doctypeName = nil
        doctypePublicID = nil
        doctypeSystemID = nil
        doctypeForceQuirks = false
    }

    mutating func extendDoctypeName(_ byte: UInt8) { doctypeName = (doctypeName ?? []) + [Self.lowercased(byte)] }
    mutating func extendDoctypeName(_ bytes: [UInt8]) { doctypeName = (doctypeName ?? []) + bytes }
    mutating func setDoctypePublicID(_ bytes: [UInt8]) { doctypePublicID = bytes }
    mutating func extendDoctypePublicID(_ bytes: [UInt8]) { doctypePublicID = (doctypePublicID ?? []) + bytes }
    mutating func setDoctypeSystemID(_ bytes: [UInt8]) { doctypeSystemID = bytes }
    mutating func extendDoctypeSystemID(_ bytes: [UInt8]) { doctypeSystemID = (doctypeSystemID ?? []) + bytes }
    mutating func forceQuirks() { doctypeForceQuirks = true }

    mutating func emitDoctype() {
        func string(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
        emit(.doctype(HTMLDoctypeToken(name: string(doctypeName), publicID: string(doctypePublicID),
                                       systemID: string(doctypeSystemID), forceQuirks: doctypeForceQuirks, offset: tokenOffset)))
    }

    // MARK: Temporary buffer

    mutating func clearTemporaryBuffer() { temporaryBuffer.removeAll(keepingCapacity: true) }
    mutating func appendToTemporaryBuffer(_ byte: UInt8) { temporaryBuffer.append(byte) }
    var temporaryBufferIsScript: Bool { temporaryBuffer == Array("script".utf8) }
    mutating func emitTemporaryBuffer() { emitCharacters(temporaryBuffer) }

    mutating func markTokenStart(_ offset: Int) { tokenOffset = offset }

    // MARK: Input

    /// The byte at `position`, or -1 at the end of the input.
    @inline(__always)
    var current: Int { position < input.count ? Int(input[position]) : -1 }

    /// Whether the input at `position` starts with `word`, ASCII case-insensitively if asked.
    func lookingAt(_ word: String, caseInsensitive: Bool) -> Bool {
        let bytes = Array(word.utf8)
        guard position + bytes.count <= input.count else { return false }
        for (offset, byte) in bytes.enumerated() {
            let actual = input[position + offset]
            if caseInsensitive ? Self.lowercased(actual) != Self.lowercased(byte) : actual != byte { return false }
        }
        return true
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    @inline(__always)
    static func isWhitespace(_ c: Int) -> Bool { c == 0x09 || c == 0x0A || c == 0x0C || c == 0x20 }

    @inline(__always)
    static func isAlpha(_ c: Int) -> Bool { (c >= Int(UInt8(ascii: "A")) && c <= Int(UInt8(ascii: "Z"))) || (c >= Int(UInt8(ascii: "a")) && c <= Int(UInt8(ascii: "z"))) }

    @inline(__always)
    static func isUpperAlpha(_ c: Int) -> Bool { c >= Int(UInt8(ascii: "A")) && c <= Int(UInt8(ascii: "Z")) }

    @inline(__always)
    static func isDigit(_ c: Int) -> Bool { c >= Int(UInt8(ascii: "0")) && c <= Int(UInt8(ascii: "9")) }

    @inline(__always)
    static func isAlphanumeric(_ c: Int) -> Bool { isAlpha(c) || isDigit(c) }
}
