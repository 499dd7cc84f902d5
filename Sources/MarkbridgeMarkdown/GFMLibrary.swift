#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Debian's cmark-gfm (libcmark-gfm and libcmark-gfm-extensions), loaded at run time and
/// never linked: it exports cmark's own names (`cmark_parse_document`, `cmark_node_free`, ...)
/// with another ABI, so linked beside libcmark one of them would call the other's functions.
/// Loaded with `RTLD_LOCAL` its names stay out of the process's global scope, and with
/// `RTLD_DEEPBIND` its own calls (and the extensions' calls into it) resolve to itself first,
/// never to libcmark; every function is looked up from the handle by `dlsym` into a typed
/// C function pointer. Loaded once, on first use, and never unloaded.
@safe struct GFMLibrary: Sendable {
    typealias Node = OpaquePointer

    let parserNew: @convention(c) (Int32) -> OpaquePointer?
    let parserFeed: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int) -> Void
    let parserFinish: @convention(c) (OpaquePointer?) -> Node?
    let parserFree: @convention(c) (OpaquePointer?) -> Void
    let parserAttachSyntaxExtension: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let findSyntaxExtension: @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    let nodeFree: @convention(c) (Node?) -> Void
    let iterNew: @convention(c) (Node?) -> OpaquePointer?
    let iterNext: @convention(c) (OpaquePointer?) -> UInt32
    let iterGetNode: @convention(c) (OpaquePointer?) -> Node?
    let iterFree: @convention(c) (OpaquePointer?) -> Void
    let nodeGetType: @convention(c) (Node?) -> UInt32
    let nodeGetTypeString: @convention(c) (Node?) -> UnsafePointer<CChar>?
    let nodeLastChild: @convention(c) (Node?) -> Node?
    let nodeGetLiteral: @convention(c) (Node?) -> UnsafePointer<CChar>?
    let nodeGetFenceInfo: @convention(c) (Node?) -> UnsafePointer<CChar>?
    let nodeGetURL: @convention(c) (Node?) -> UnsafePointer<CChar>?
    let nodeGetTitle: @convention(c) (Node?) -> UnsafePointer<CChar>?
    let nodeGetHeadingLevel: @convention(c) (Node?) -> Int32
    let nodeGetListType: @convention(c) (Node?) -> UInt32
    let nodeGetListStart: @convention(c) (Node?) -> Int32
    let nodeGetListDelim: @convention(c) (Node?) -> UInt32
    let nodeGetListTight: @convention(c) (Node?) -> Int32
    let nodeGetStartLine: @convention(c) (Node?) -> Int32
    let nodeGetStartColumn: @convention(c) (Node?) -> Int32
    let nodeGetEndLine: @convention(c) (Node?) -> Int32
    let versionString: @convention(c) () -> UnsafePointer<CChar>?
    let tableColumns: @convention(c) (Node?) -> UInt16
    let tableAlignments: @convention(c) (Node?) -> UnsafeMutablePointer<UInt8>?
    let tableRowIsHeader: @convention(c) (Node?) -> Int32
    let tasklistItemChecked: @convention(c) (Node?) -> Bool

    /// The extensions' node types, numbered when they registered (see ``CmarkNodeType``).
    let tableType: UInt32
    let tableRowType: UInt32
    let tableCellType: UInt32
    let strikethroughType: UInt32

    /// The syntax extensions every GFM parse attaches, as `cmark-gfm --extension` names them.
    static let extensionNames = ["table", "strikethrough", "autolink", "tasklist"]

    /// The shared objects' names as Debian installs them (`dpkg -L libcmark-gfm0.29.0.gfm.6`),
    /// newest first: bookworm has gfm.6, later releases gfm.13. The API read here is the same.
    static let libraryNames = [
        (core: "libcmark-gfm.so.0.29.0.gfm.13", extensions: "libcmark-gfm-extensions.so.0.29.0.gfm.13"),
        (core: "libcmark-gfm.so.0.29.0.gfm.6", extensions: "libcmark-gfm-extensions.so.0.29.0.gfm.6"),
    ]

    /// The library, or why it could not be loaded, found once per process.
    static let shared: Result<GFMLibrary, GFMUnavailable> = load(libraryNames)

    /// The first of `names` that loads and has every symbol, or why none did.
    static func load(_ names: [(core: String, extensions: String)]) -> Result<GFMLibrary, GFMUnavailable> {
        if let sanitizer = sanitizerRuntime() {
            return .failure(GFMUnavailable(detail: "not loaded under \(sanitizer), whose runtime stops a process that loads a library with RTLD_DEEPBIND"))
        }
        var reasons: [String] = []
        for name in names {
            switch load(core: name.core, extensions: name.extensions) {
            case .success(let library): return .success(library)
            case .failure(let reason): reasons.append(reason.detail)
            }
        }
        return .failure(GFMUnavailable(detail: reasons.joined(separator: "; ")))
    }

    /// The sanitizer whose runtime this process carries (`swift test --sanitize=...`, as
    /// `.ci/sanitizers` runs the suite), found by its entry point; nil in every ordinary build.
    private static func sanitizerRuntime() -> String? {
        if unsafe dlsym(nil, "__asan_init") != nil { return "AddressSanitizer" }
        if unsafe dlsym(nil, "__tsan_init") != nil { return "ThreadSanitizer" }
        return nil
    }

    private static func load(core: String, extensions: String) -> Result<GFMLibrary, GFMUnavailable> {
        let flags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND
        // The core first, so that the extensions' own dependency on it is this very copy.
        guard let coreHandle = unsafe dlopen(core, flags) else { return .failure(GFMUnavailable(detail: lastError(core))) }
        guard let extensionsHandle = unsafe dlopen(extensions, flags) else {
            unsafe dlclose(coreHandle)
            return .failure(GFMUnavailable(detail: lastError(extensions)))
        }
        func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, as type: T.Type) throws(GFMUnavailable) -> T {
            guard let address = unsafe dlsym(handle, name) else { throw GFMUnavailable(detail: "\(core) or \(extensions) lacks \(name)") }
            return unsafe unsafeBitCast(address, to: type)
        }
        func nodeType(_ name: String) throws(GFMUnavailable) -> UInt32 {
            guard let address = unsafe dlsym(extensionsHandle, name) else { throw GFMUnavailable(detail: "\(extensions) lacks \(name)") }
            return unsafe address.assumingMemoryBound(to: UInt32.self).pointee
        }
        let library: GFMLibrary
        do throws(GFMUnavailable) {
            // Registration numbers the extensions' node types; it must come before they are read.
            unsafe try symbol(extensionsHandle, "cmark_gfm_core_extensions_ensure_registered", as: (@convention(c) () -> Void).self)()
            library = unsafe GFMLibrary(
                parserNew: try symbol(coreHandle, "cmark_parser_new", as: (@convention(c) (Int32) -> OpaquePointer?).self),
                parserFeed: try symbol(coreHandle, "cmark_parser_feed", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int) -> Void).self),
                parserFinish: try symbol(coreHandle, "cmark_parser_finish", as: (@convention(c) (OpaquePointer?) -> Node?).self),
                parserFree: try symbol(coreHandle, "cmark_parser_free", as: (@convention(c) (OpaquePointer?) -> Void).self),
                parserAttachSyntaxExtension: try symbol(coreHandle, "cmark_parser_attach_syntax_extension", as: (@convention(c) (OpaquePointer?, OpaquePointer?) -> Int32).self),
                findSyntaxExtension: try symbol(coreHandle, "cmark_find_syntax_extension", as: (@convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?).self),
                nodeFree: try symbol(coreHandle, "cmark_node_free", as: (@convention(c) (Node?) -> Void).self),
                iterNew: try symbol(coreHandle, "cmark_iter_new", as: (@convention(c) (Node?) -> OpaquePointer?).self),
                iterNext: try symbol(coreHandle, "cmark_iter_next", as: (@convention(c) (OpaquePointer?) -> UInt32).self),
                iterGetNode: try symbol(coreHandle, "cmark_iter_get_node", as: (@convention(c) (OpaquePointer?) -> Node?).self),
                iterFree: try symbol(coreHandle, "cmark_iter_free", as: (@convention(c) (OpaquePointer?) -> Void).self),
                nodeGetType: try symbol(coreHandle, "cmark_node_get_type", as: (@convention(c) (Node?) -> UInt32).self),
                nodeGetTypeString: try symbol(coreHandle, "cmark_node_get_type_string", as: (@convention(c) (Node?) -> UnsafePointer<CChar>?).self),
                nodeLastChild: try symbol(coreHandle, "cmark_node_last_child", as: (@convention(c) (Node?) -> Node?).self),
                nodeGetLiteral: try symbol(coreHandle, "cmark_node_get_literal", as: (@convention(c) (Node?) -> UnsafePointer<CChar>?).self),
                nodeGetFenceInfo: try symbol(coreHandle, "cmark_node_get_fence_info", as: (@convention(c) (Node?) -> UnsafePointer<CChar>?).self),
                nodeGetURL: try symbol(coreHandle, "cmark_node_get_url", as: (@convention(c) (Node?) -> UnsafePointer<CChar>?).self),
                nodeGetTitle: try symbol(coreHandle, "cmark_node_get_title", as: (@convention(c) (Node?) -> UnsafePointer<CChar>?).self),
                nodeGetHeadingLevel: try symbol(coreHandle, "cmark_node_get_heading_level", as: (@convention(c) (Node?) -> Int32).self),
                nodeGetListType: try symbol(coreHandle, "cmark_node_get_list_type", as: (@convention(c) (Node?) -> UInt32).self),
                nodeGetListStart: try symbol(coreHandle, "cmark_node_get_list_start", as: (@convention(c) (Node?) -> Int32).self),
                nodeGetListDelim: try symbol(coreHandle, "cmark_node_get_list_delim", as: (@convention(c) (Node?) -> UInt32).self),
                nodeGetListTight: try symbol(coreHandle, "cmark_node_get_list_tight", as: (@convention(c) (Node?) -> Int32).self),
                nodeGetStartLine: try symbol(coreHandle, "cmark_node_get_start_line", as: (@convention(c) (Node?) -> Int32).self),
                nodeGetStartColumn: try symbol(coreHandle, "cmark_node_get_start_column", as: (@convention(c) (Node?) -> Int32).self),
                nodeGetEndLine: try symbol(coreHandle, "cmark_node_get_end_line", as: (@convention(c) (Node?) -> Int32).self),
                versionString: try symbol(coreHandle, "cmark_version_string", as: (@convention(c) () -> UnsafePointer<CChar>?).self),
                tableColumns: try symbol(extensionsHandle, "cmark_gfm_extensions_get_table_columns", as: (@convention(c) (Node?) -> UInt16).self),
                tableAlignments: try symbol(extensionsHandle, "cmark_gfm_extensions_get_table_alignments", as: (@convention(c) (Node?) -> UnsafeMutablePointer<UInt8>?).self),
                tableRowIsHeader: try symbol(extensionsHandle, "cmark_gfm_extensions_get_table_row_is_header", as: (@convention(c) (Node?) -> Int32).self),
                tasklistItemChecked: try symbol(extensionsHandle, "cmark_gfm_extensions_get_tasklist_item_checked", as: (@convention(c) (Node?) -> Bool).self),
                tableType: try nodeType("CMARK_NODE_TABLE"),
                tableRowType: try nodeType("CMARK_NODE_TABLE_ROW"),
                tableCellType: try nodeType("CMARK_NODE_TABLE_CELL"),
                strikethroughType: try nodeType("CMARK_NODE_STRIKETHROUGH")
            )
        } catch {
            return .failure(error)
        }
        let absent = extensionNames.filter { unsafe library.findSyntaxExtension($0) == nil }
        guard absent.isEmpty else {
            return .failure(GFMUnavailable(detail: "\(extensions) registers no \(absent.joined(separator: ", ")) extension"))
        }
        return .success(library)
    }

    private static func lastError(_ name: String) -> String {
        unsafe dlerror().map { unsafe String(cString: $0) } ?? "\(name) could not be loaded"
    }

    /// cmark-gfm's version, as it reports it ("0.29.0.gfm.6").
    var version: String { unsafe versionString().map { unsafe String(cString: $0) } ?? "unknown" }
}

/// Why cmark-gfm could not be loaded: no library of that name, or one without what we call.
struct GFMUnavailable: Error, Sendable {
    var detail: String

    /// The package that brings the libraries, as `apt-get install` names it.
    static let package = "libcmark-gfm-extensions-dev"
}
