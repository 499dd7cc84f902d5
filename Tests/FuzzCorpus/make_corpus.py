#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora, Tests/FuzzCorpus/<target>/, from what the repository
and ../shared/data hold: the fixture files, the samples, the hostile inputs in Tests/FuzzSeeds,
html5lib's tree-construction and tokenizer inputs and the CommonMark spec's examples. Each seed
is cut to MAX_BYTES; each target keeps at most MAX_FILES seeds, chosen evenly. The result is
the same on every run (no clock, a fixed random seed), so the corpora are committed and a
change to them shows in review.

Run from the repository root: python3 Tests/FuzzCorpus/make_corpus.py
Where ../shared/data is absent, its part is skipped, and the script says so.
"""
import hashlib
import json
import os
import random
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "FuzzCorpus")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data")
SEEDS = os.path.join(ROOT, "Tests", "FuzzSeeds")
MAX_BYTES = 2048
MAX_FILES = 300

# The html-parser target reads a first byte below 8 as a fragment context (ReaderTargets.swift).
FRAGMENT_CONTEXTS = ["body", "td", "select", "textarea", "table", "title", "svg svg", "math math"]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def fixtures(path):
    """The (input, expected) pairs of a fixture file (Sources/MarkbridgeTestSupport/Fixtures.swift)."""
    if not os.path.exists(path):
        return []
    cases = []
    for chunk in read(path).decode("utf-8").split("\n====\n"):
        lines = chunk.split("\n")
        titles = [i for i, line in enumerate(lines) if line.startswith("## ")]
        if not titles or "----" not in lines[titles[0]:]:
            continue
        separator = lines.index("----", titles[0])
        cases.append(("\n".join(lines[titles[0] + 1:separator]).encode(), "\n".join(lines[separator + 1:]).strip("\n").encode()))
    return cases


def html5lib_trees():
    """(input, fragment context or None) for every tree-construction test."""
    folder = os.path.join(SHARED, "html5lib-tests", "tree-construction")
    if not os.path.isdir(folder):
        print("make_corpus: skipped html5lib tree-construction inputs (no %s)" % folder)
        return []
    tests = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".dat"):
            continue
        text = read(os.path.join(folder, name)).decode("utf-8")
        for block in text.split("\n\n#data\n"):
            block = block[len("#data\n"):] if block.startswith("#data\n") else block
            lines = block.split("\n")
            ends = [i for i, line in enumerate(lines) if line.startswith("#")]
            if not ends:
                continue
            data = "\n".join(lines[:ends[0]])
            context = None
            if "#document-fragment" in lines:
                context = lines[lines.index("#document-fragment") + 1].strip()
            tests.append((data.encode(), context))
    return tests


def html5lib_tokens():
    folder = os.path.join(SHARED, "html5lib-tests", "tokenizer")
    if not os.path.isdir(folder):
        print("make_corpus: skipped html5lib tokenizer inputs (no %s)" % folder)
        return []
    inputs = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".test"):
            continue
        for test in json.loads(read(os.path.join(folder, name))).get("tests", []):
            text = test["input"]
            if test.get("doubleEscaped"):
                text = text.encode("utf-16", "surrogatepass").decode("utf-16")
                text = text.encode("latin-1", "backslashreplace").decode("unicode-escape")
            inputs.append(text.encode("utf-8", "replace"))
    return inputs


def commonmark_examples(name="commonmark-spec.txt"):
    path = os.path.join(SHARED, name)
    if not os.path.exists(path):
        print("make_corpus: skipped the examples of %s (no %s)" % (name, path))
        return []
    examples, current, inside = [], [], False
    fence = "`" * 32
    for line in read(path).decode("utf-8").split("\n"):
        if line.startswith(fence + " example"):
            inside, current = True, []
        elif inside and line == ".":
            examples.append("\n".join(current).replace("\u2192", "\t").encode() + b"\n")
            inside = False
        elif inside:
            current.append(line)
    return examples


def samples(extension):
    found = []
    for folder in [os.path.join(ROOT, "Samples"), os.path.join(SHARED, "samples")]:
        if not os.path.isdir(folder):
            print("make_corpus: skipped the samples in %s (absent)" % folder)
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(extension):
                found.append(read(os.path.join(folder, name)))
    return found


def hostile(target):
    folder = os.path.join(SEEDS, target)
    if not os.path.isdir(folder):
        return []
    return [read(os.path.join(folder, name)) for name in sorted(os.listdir(folder))]


def cut(data, limit=MAX_BYTES):
    """At most `limit` bytes, not ending inside a UTF-8 sequence."""
    if len(data) <= limit:
        return data
    end = limit
    while end > 0 and data[end] & 0xC0 == 0x80:
        end -= 1
    return data[:end]


def evenly(items, count):
    if len(items) <= count:
        return items
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def write(target, seeds):
    folder = os.path.join(OUT, target)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    unique = list(dict.fromkeys(cut(seed) for seed in seeds if seed))
    unique = evenly(unique, MAX_FILES)
    for seed in unique:
        name = hashlib.sha1(seed).hexdigest()[:16]
        with open(os.path.join(folder, name), "wb") as f:
            f.write(seed)
    print("make_corpus: %-16s %4d seeds, %7d bytes" % (target, len(unique), sum(map(len, unique))))


# Tokens libFuzzer splices into inputs (-dict), for the targets named in DICTIONARIES.
HTML_TOKENS = [
    "<b>", "</b>", "<i>", "</i>", "<em>", "<strong>", "<u>", "<s>", "<mark>", "<sup>", "<sub>", "<code>", "<pre>", "<p>", "</p>", "<br>",
    "<div>", "</div>", '<span style="', "color:", "background-color:", "font-weight:700", "font-style:italic", "text-decoration:",
    '<a href="', "</a>", '<img src="', ' alt="', ' title="', "javascript:", "data:", "https://", "mailto:",
    "<h1>", "<h6>", "<blockquote>", "</blockquote>", "<ul>", '<ol start="', "<li>", "</li>", ' value="', "<dl>", "<dt>", "<dd>",
    "<table>", "</table>", "<caption>", "<thead>", "<tbody>", "<tr>", "<th>", "<td>", ' colspan="', ' rowspan="', ' align="',
    "<figure>", "<figcaption>", '<iframe src="', "<video", "<audio>", '<source src="', '<object data="', '<embed src="',
    "<script>", "</script>", "<style>", "<template>", "<noscript>", "<textarea>", "<select>", "<option>", "<title>", "<xmp>",
    "<plaintext>", "<svg>", "</svg>", "<math>", "<foreignObject>", "<desc>", "<mi>", '<annotation-xml encoding="text/html">',
    "<frameset>", "<head>", "<body>", "<html>", "<!DOCTYPE html>", "<!--", "-->", "<![CDATA[", "]]>", "<?", "&amp;", "&lt;",
    "&nbsp;", "&#x", "&#", "&notin", '"', "'", ' id="', ' class="', ' xlink:href="', ' onclick="', "<input type=checkbox checked>",
    "<details>", "<summary>", '<abbr title="', "<o:p>", "mso-list:", "<![if !supportLists]>", "<![endif]>",
]
MARKDOWN_TOKENS = [
    "**", "__", "*", "_", "`", "``", "```", "~~~", "> ", "- ", "* ", "+ ", "1. ", "1) ", "# ", "###### ", "[", "]", "](", "![", ")",
    "<http://a>", "<a@b.c>", "---", "===", "    ", "\t", "\\", "&amp;", "&#", "&#x", '[x]: /u "t"', '"', "'", "(", "<div>", "</div>",
    "<!--", "-->", "|", "| --- |", "|:-:|", "~~", "- [ ] ", "- [x] ", "\n\n", "  \n", "<b>", "javascript:", "\u00a0",
]
JSON_TOKENS = [
    "{", "}", "[", "]", ":", ",", '"version":1', '"offsetUnit":"utf8"', '"offsetUnit":"scalar"', '"paragraphs":[', '"text":"',
    '"markups":[', '"start":', '"end":', '"href":"', '"src":"', '"alt":"', '"title":"', '"depth":', '"quoteDepth":', '"number":',
    '"language":"', '"cells":[', '"align":"', '"containerStart":', '"startsTable":true', '"colspan":', '"header":true', '"embed":"',
    '"continues":true', '"color":"', "\\ud83d\\udc4d", "\\u0000", "\\ud800", "1e400", "-0", "9223372036854775808", "true", "null",
] + ['"type":"%s"' % name for name in ["P", "H2", "OLI", "ULI", "BQ", "PRE", "IMG", "HR", "TR", "DT", "DD", "CAPTION", "EMBED",
                                        "STRONG", "EM", "LINK", "IMAGE", "CODE", "COLOR", "BACKGROUND", "UNDERLINE", "STRIKE",
                                        "SUP", "SUB", "HIGHLIGHT", "BLINK"]]
DICTIONARIES = {
    "html-reader": HTML_TOKENS, "html-parser": HTML_TOKENS, "markdown-reader": MARKDOWN_TOKENS, "json-reader": JSON_TOKENS,
    "convert": HTML_TOKENS + MARKDOWN_TOKENS + JSON_TOKENS, "jsonl-record": JSON_TOKENS + HTML_TOKENS,
    "diff-check": HTML_TOKENS + MARKDOWN_TOKENS,
}


def write_dictionary(target, tokens):
    """libFuzzer's format: one quoted token a line; backslash, quote and bytes outside ASCII escaped."""
    lines = []
    for token in dict.fromkeys(tokens):
        escaped = ""
        for byte in token.encode("utf-8"):
            if byte == 0x5C:
                escaped += "\\\\"
            elif byte == 0x22:
                escaped += '\\"'
            elif 0x20 <= byte < 0x7F:
                escaped += chr(byte)
            else:
                escaped += "\\x%02X" % byte
        lines.append('"%s"' % escaped)
    with open(os.path.join(OUT, target + ".dict"), "w") as f:
        f.write("\n".join(lines) + "\n")


def jsonl(values, field="html", extra=b""):
    lines = []
    for i, value in enumerate(values):
        text = value.decode("utf-8", "replace")
        lines.append(b'{"id":%d,"%s":%s%s}' % (i, field.encode(), json.dumps(text).encode(), extra))
    return lines


def main():
    html_fixtures = fixtures(os.path.join(ROOT, "Tests", "MarkbridgeHTMLTests", "Fixtures", "reader.txt"))
    markdown_fixtures = fixtures(os.path.join(ROOT, "Tests", "MarkbridgeMarkdownTests", "Fixtures", "writer.txt"))
    json_files = ["rejections.txt", "diagnostics.txt", "writer.txt"]
    json_fixtures = sum((fixtures(os.path.join(ROOT, "Tests", "MarkbridgeJSONTests", "Fixtures", name)) for name in json_files), [])
    trees = html5lib_trees()
    tokens = html5lib_tokens()
    examples = commonmark_examples()
    gfm = commonmark_examples("gfm-spec.txt")
    html_samples = samples(".html")
    json_samples = samples(".json")

    html_inputs = [i for i, _ in html_fixtures] + html_samples + [data for data, context in trees if context is None]
    write("html-reader", hostile("html-reader") + [i for i, _ in html_fixtures] + html_samples
          + evenly([data for data, context in trees if context is None], 200))

    fragments = []
    for data, context in trees:
        if context is None:
            fragments.append(data)
        elif context in FRAGMENT_CONTEXTS:
            fragments.append(bytes([FRAGMENT_CONTEXTS.index(context)]) + data)
    write("html-parser", evenly(fragments, 240) + evenly(tokens, 60))

    markdown = [o for _, o in markdown_fixtures] + examples + evenly(gfm, 40)
    write("markdown-reader", hostile("markdown-reader") + evenly(markdown, 280))

    json_inputs = [i for i, _ in json_fixtures] + [o for _, o in html_fixtures if o.startswith(b"{")] + json_samples
    write("json-reader", hostile("json-reader") + json_inputs)

    # Convert: the first byte picks the reader (0 JSON, 1 HTML, 2 Markdown), as the
    # single target before these read it, so Tests/FuzzSeeds of the readers are prefixed again
    # (those of convert itself have their first byte already).
    write("convert", hostile("convert") + [b"\x00" + s for s in hostile("json-reader") + evenly(json_inputs, 60)]
          + [b"\x01" + s for s in hostile("html-reader") + evenly(html_inputs, 110)]
          + [b"\x02" + s for s in hostile("markdown-reader") + evenly(markdown, 110)])

    # The round trip reads its bytes as the generator's decisions: any bytes will do, of the
    # sizes that make documents of one to eight blocks.
    rng = random.Random(27)
    decisions = []
    for i in range(120):
        size = 2 + rng.choice([24, 48, 96, 144, 192, 288, 384])
        decisions.append(bytes(rng.randrange(256) for _ in range(size)))
    for target in ["round-trip-json", "round-trip-html", "round-trip-markdown"]:
        # Beside them, the decisions that once found something (Tests/FuzzSeeds/<target>).
        write(target, decisions + hostile(target))

    write("attributes", hostile("attributes"))

    # Records: the first byte is the command line (JSONLinesTarget.swift), then the lines.
    records = []
    html_lines = jsonl(evenly(html_inputs, 60))
    markdown_lines = jsonl(evenly(markdown, 60))
    json_lines = [b'{"id":"j%d","html":%s}' % (i, json.dumps(doc.decode("utf-8", "replace")).encode()) for i, doc in enumerate(evenly(json_inputs, 30))]
    for index in range(0, 60, 3):
        for flags, lines in [(0x00, html_lines), (0x09, markdown_lines), (0x12, json_lines), (0x94, html_lines), (0x2D, markdown_lines)]:
            chunk = lines[index % len(lines):index % len(lines) + 3]
            records.append(bytes([flags]) + b"\n".join(chunk) + b"\n")
    edge_lines = [
        b'{"html":"<p>a</p>"}\r\n{"html":"<b>b</b>"}',
        b'\xef\xbb\xbf{"id":1,"html":"x"}\n\n   \n\t\n{"id":2,"html":"y"}\n',
        b'{"html":"<p>x</p>","html":"<script>"}\n',
        b'{"html":1}\n{"html":null}\n{"other":"x"}\n[1,2]\n"str"\n{\n{"html":"\\ud800"}\n',
        b'{"id":{"a":[1,{"b":"}"}]},"html":"<i>deep</i>"}\n',
        b'{"id":"' + b"x" * 120 + b'","html":"' + b"<b>" * 40 + b'"}\n',
        b'{"html":"ok","out":"old"}\n{"out":1,"html":"<p>two</p>"}\n',
        b'{"html":"\\u0000\\u001b[0m\\u2028"}\n',
    ]
    for flags in [0x00, 0x40, 0x80, 0x10, 0x54]:
        for lines in edge_lines:
            records.append(bytes([flags]) + lines)
    write("jsonl-record", hostile("jsonl-record") + records)

    # Pairs: the first byte is the formats and diff options (DiffCheckTarget.swift), then the
    # old document, 0xFF, the new one: a document beside its neighbour, and beside itself.
    pairs = []
    for flags, inputs in [(0x00, evenly(html_inputs, 80)), (0x05, evenly(markdown, 80)), (0x0A, evenly(json_inputs, 40)), (0x38, evenly(html_inputs, 30))]:
        for a, b in zip(inputs, inputs[1:]):
            pairs.append(bytes([flags]) + cut(a, 1000) + b"\xff" + cut(b, 1000))
        for a in inputs[::4]:
            pairs.append(bytes([flags ^ 0xC0]) + cut(a, 1500))
    write("diff-check", pairs)

    for target, tokens in DICTIONARIES.items():
        write_dictionary(target, tokens)


if __name__ == "__main__":
    sys.exit(main())
