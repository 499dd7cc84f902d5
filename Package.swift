// swift-tools-version:6.2
import PackageDescription

// The fuzz entry point, as a library that .ci/fuzz links into a libFuzzer binary: offered only
// when .ci/fuzz asks (MARKBRIDGE_FUZZ=1), so that no package depending on Markbridge sees it.
let fuzzProducts: [Product] = Context.environment["MARKBRIDGE_FUZZ"] == nil ? []
    : [.library(name: "MarkbridgeFuzz", type: .dynamic, targets: ["MarkbridgeFuzz"])]

let package = Package(
    name: "Markbridge",
    products: [
        .library(name: "Markbridge", targets: ["Markbridge"]),
        .library(name: "MarkbridgeMigration", targets: ["MarkbridgeMigration"]),
        .library(name: "MarkbridgeAttributedString", targets: ["MarkbridgeAttributedString"]),
        .executable(name: "markbridge", targets: ["MarkbridgeCommand"]),
        .executable(name: "markbridge-bench", targets: ["MarkbridgeBench"]),
    ] + fuzzProducts,
    targets: [
        // The byte layer under every format: SIMD scans, UTF-8 validation, ASCII case, offsets
        // walked from UTF-16 to UTF-8. `package` only: no service that imports Markbridge sees it.
        .target(name: "MarkbridgeBytes"),

        // The intermediate representation: paragraphs with ranged markups, and the protocols
        // every format's reader and writer conform to. The standard library, Synchronization and
        // the byte layer only.
        .target(name: "MarkbridgeIR", dependencies: ["MarkbridgeBytes"]),

        // Markup JSON, version 1: a hand-written byte-level writer and a validating reader.
        // The scanner and decoder hold a `Span` of the input: non-escapable types, whose
        // lifetimes are said with `@_lifetime` (SE-0446, still behind this feature in 6.3).
        .target(
            name: "MarkbridgeJSON", dependencies: ["MarkbridgeBytes", "MarkbridgeIR"],
            swiftSettings: [.enableExperimentalFeature("Lifetimes")]
        ),

        // An HTML5 parser of our own, after the WHATWG algorithm, over UTF-8 bytes.
        .target(
            name: "MarkbridgeHTMLParser",
            dependencies: ["MarkbridgeBytes", "MarkbridgeIR"],
            exclude: ["Generated/generate_named_references.py"]
        ),

        // HTML in and out: the parsed tree mapped to the IR by rules, and the IR written as HTML.
        .target(
            name: "MarkbridgeHTML",
            dependencies: ["MarkbridgeBytes", "MarkbridgeIR", "MarkbridgeHTMLParser"],
            exclude: ["Generated/generate_named_colors.py"]
        ),

        // Plain text out: what a reader sees.
        .target(name: "MarkbridgeText", dependencies: ["MarkbridgeBytes", "MarkbridgeIR"]),

        // cmark, Debian's libcmark-dev, seen through a system-library target.
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        // Markdown: the only module that imports the cmark C module.
        .target(name: "MarkbridgeMarkdown", dependencies: ["MarkbridgeBytes", "MarkbridgeIR", "MarkbridgeHTML", "CCmark"]),

        // Hashtags, mentions and web addresses found in any document's text and marked up.
        .target(name: "MarkbridgeEntities", dependencies: ["MarkbridgeIR"]),

        // Documents compared: blocks aligned, text, markups and attributes told apart.
        .target(name: "MarkbridgeDiff", dependencies: ["MarkbridgeIR"]),

        // The umbrella that services import: the format registry and the converter facade.
        .target(
            name: "Markbridge",
            dependencies: ["MarkbridgeBytes", "MarkbridgeIR", "MarkbridgeJSON", "MarkbridgeHTMLParser", "MarkbridgeHTML", "MarkbridgeText", "MarkbridgeMarkdown", "MarkbridgeDiff", "MarkbridgeEntities"]
        ),

        // Migrations of files, as `markbridge batch` runs them: JSON Lines records or a folder's
        // tree, dead letters, checkpoint and resume, the census and its pages.
        .target(name: "MarkbridgeMigration", dependencies: ["Markbridge", "MarkbridgeJSON", "MarkbridgeBytes"]),

        // Documents as Foundation's AttributedString, for native clients: a product of its own, so
        // that a service that never shows text links no Foundation for it. Built on the IR's
        // public block events and inline runs, as a service's own renderer would be.
        .target(name: "MarkbridgeAttributedString", dependencies: ["MarkbridgeIR", "MarkbridgeJSON"]),

        // The command line as a testable library; `MarkbridgeCommand` is its few-line `main.swift`.
        .target(name: "MarkbridgeCLI", dependencies: ["Markbridge", "MarkbridgeMigration", "MarkbridgeJSON", "MarkbridgeHTMLParser"]),
        .executableTarget(name: "MarkbridgeCommand", dependencies: ["MarkbridgeCLI"]),

        // Deterministic generated documents, shared by the property tests and the benchmark.
        // The safety oracle renders Markdown with the linked cmark and parses HTML with ours;
        // what a round trip lost unreported is told from a document diff.
        .target(name: "MarkbridgeTestSupport", dependencies: ["MarkbridgeIR", "MarkbridgeHTMLParser", "MarkbridgeMarkdown", "MarkbridgeDiff", "MarkbridgeEntities"]),

        // The libFuzzer targets (readers, round trips, batch records, diff), one binary each;
        // built by .ci/fuzz with -sanitize=fuzzer,address only.
        .target(name: "MarkbridgeFuzz", dependencies: ["Markbridge", "MarkbridgeJSON", "MarkbridgeHTMLParser", "MarkbridgeCLI", "MarkbridgeMigration", "MarkbridgeTestSupport"]),

        // The one place where speed is measured.
        // `peers.py` times the peers (lexbor, html-to-markdown, cmark) for `--peers`.
        .executableTarget(
            name: "MarkbridgeBench",
            dependencies: ["Markbridge", "MarkbridgeAttributedString", "MarkbridgeJSON", "MarkbridgeHTMLParser", "MarkbridgeTestSupport"],
            exclude: ["peers.py"]
        ),

        .testTarget(name: "MarkbridgeIRTests", dependencies: ["MarkbridgeBytes", "MarkbridgeIR", "MarkbridgeTestSupport"]),
        .testTarget(
            name: "MarkbridgeJSONTests",
            dependencies: ["MarkbridgeJSON", "MarkbridgeIR", "MarkbridgeTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "MarkbridgeHTMLParserTests",
            dependencies: ["MarkbridgeHTMLParser", "MarkbridgeIR", "MarkbridgeTestSupport"],
            exclude: ["Conformance"]
        ),
        .testTarget(
            name: "MarkbridgeHTMLTests",
            dependencies: ["MarkbridgeHTML", "MarkbridgeText", "MarkbridgeJSON", "MarkbridgeIR", "MarkbridgeTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "MarkbridgeMarkdownTests",
            dependencies: ["MarkbridgeMarkdown", "MarkbridgeHTML", "MarkbridgeHTMLParser", "MarkbridgeJSON", "MarkbridgeIR", "MarkbridgeTestSupport"],
            exclude: ["Fixtures", "Conformance"]
        ),
        .testTarget(name: "MarkbridgeEntitiesTests", dependencies: ["MarkbridgeEntities", "Markbridge", "MarkbridgeTestSupport"]),
        .testTarget(name: "MarkbridgeDiffTests", dependencies: ["MarkbridgeDiff", "MarkbridgeIR", "MarkbridgeTestSupport"]),
        .testTarget(
            name: "MarkbridgeCLITests",
            dependencies: ["MarkbridgeCLI", "MarkbridgeMigration", "Markbridge", "MarkbridgeJSON", "MarkbridgeTestSupport"],
            exclude: ["Goldens", "Fixtures"]
        ),
        .testTarget(name: "MarkbridgeAttributedStringTests", dependencies: ["MarkbridgeAttributedString", "MarkbridgeIR", "MarkbridgeJSON", "MarkbridgeHTML", "MarkbridgeTestSupport"]),
        .testTarget(name: "MarkbridgeMigrationTests", dependencies: ["MarkbridgeMigration", "Markbridge", "MarkbridgeTestSupport"]),
    ]
)

// SE-0458: every use of an unsafe construct is a warning unless marked `unsafe`, so that new
// pointer code cannot come in unseen (README, Contributing).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.strictMemorySafety()]
}
