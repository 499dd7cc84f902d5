@_exported import MarkbridgeIR
@_exported import MarkbridgeJSON
