// What a service that imports Markbridge sees: the IR, the readers and writers with their options,
// the document diff, the converter, formats and batch engine (this module). The HTML parser's tree is a module of its
// own, imported by name where it is wanted (`import MarkbridgeHTMLParser`). What the package's
// modules share among themselves is `package`; the two exceptions are SPI named for what they
// are, because cross-module inlining of their hot paths needs it: `@_spi(MarkbridgeBytes)` (the
// byte layer) and `@_spi(InlineTraversal)` (the writers' walk over a block's markups).
@_exported import MarkbridgeIR
@_exported import MarkbridgeJSON
@_exported import MarkbridgeHTML
@_exported import MarkbridgeText
@_exported import MarkbridgeMarkdown
@_exported import MarkbridgeDiff
@_exported import MarkbridgeEntities
