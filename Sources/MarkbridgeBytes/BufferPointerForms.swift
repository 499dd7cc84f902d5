/// The `UnsafeBufferPointer` forms of this module's routines, for callers that still hand over
/// buffer pointers: the HTML, Markdown and plain-text writers and the cmark bridge (being
/// rewritten on their own), and the tests of the routines themselves. Each forwards to the
/// safe form and adds nothing; the unsafety is the caller's, in vouching that the pointer and
/// count describe live, initialised memory. Delete a form when its last caller moves to
/// `Span` or arrays.

extension String {
    /// See `init(checkingUTF8:)` for arrays: the standard library checks, and repairs.
    @_spi(Internals) public init(checkingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        self = String(decoding: bytes, as: UTF8.self)
    }
}
