@_exported import MarkbridgeIR
@_exported import MarkbridgeJSON
@_exported import MarkbridgeHTMLParser
@_exported import MarkbridgeHTML
@_exported import MarkbridgeText
@_exported import MarkbridgeMarkdown
