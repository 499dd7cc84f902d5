import Markbridge
import Foundation

/// `batch --check --report-dir DIR`: the census as `DIR/index.html`, each class's example records
/// linked to a page of their own in `DIR/records/` (the record read, written and read back, side
/// by side, with the written output and the warnings). A page is named for its record's id, so
/// a resumed run links the pages the stopped one wrote.
struct BatchReportFolder {
    let path: String

    init(path: String) throws(FileMigrationError) {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: path + "/records", withIntermediateDirectories: true)
        } catch {
            throw FileMigrationError("cannot make the folder '\(path)/records': \(error.localizedDescription)")
        }
    }

    var indexPath: String { path + "/index.html" }

    /// `records/<16 hex digits>.html`: FNV-1a of the id's JSON text, stable across runs.
    static func pageName(for id: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "records/" + String(repeating: "0", count: 16 - hex.count) + hex + ".html"
    }

    /// Writes the pages of the records that are, now that `census` has merged their piece, among its examples.
    func write(_ pages: [(id: String, page: [UInt8])], census: MigrationCensus) throws(FileMigrationError) {
        guard !pages.isEmpty else { return }
        let examples = Set(census.classes.values.flatMap(\.examples))
        for (id, page) in pages where examples.contains(id) {
            let file = try BatchFile(path: path + "/" + Self.pageName(for: id))
            do throws(FileMigrationError) {
                try file.write(page)
                try file.finish(syncing: false)
            } catch {
                file.abandon()
                throw error
            }
        }
    }

    /// Each example id whose page is there, to its path relative to the index.
    func examplePages(_ census: MigrationCensus) -> [String: String] {
        var pages: [String: String] = [:]
        for id in Set(census.classes.values.flatMap(\.examples)) {
            let name = Self.pageName(for: id)
            if POSIXFiles.status(path + "/" + name)?.kind == .regular { pages[id] = name }
        }
        return pages
    }
}
