@_exported import MarkbridgeIR
@_exported import MarkbridgeJSON
@_exported import MarkbridgeHTMLParser
