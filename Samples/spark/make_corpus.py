"""Writes the Spark sample's test input: a folder of JSON Lines files of {"id", "html", ...}
records, the same bytes for the same seed, with malformed records among them so that dead letters
are exercised.

    python3 make_corpus.py FOLDER [--records N] [--files K] [--seed S]

Records carry non-ASCII text (raw UTF-8 and \\u escapes, astral characters as surrogate pairs),
backslashes, quotes, and HTML that is malformed but readable (unclosed and misnested tags, stray
end tags, bare ampersands): those convert. These do not, and become dead letters: a line that is
not JSON, a JSON array, a string, trailing bytes after the object, a record without "html", a
null or numeric "html", a lone surrogate escape, and one record far over the test's
--max-record-bytes (65536): 400,000 bytes, more than that limit plus a read piece (256 KiB), so
that batch measures it without holding it whatever its position. The last file has CR LF line
ends and starts with a byte-order mark; some files have blank lines.
"""

import argparse
import json
import os
import random

WORDS = ["migration", "record", "paragraph", "Markdown", "статья", "данные", "記事", "変換", "مقالة",
         "naïve", "café", "Zoë", "emoji \U0001F600", "math 𝔸", "back\\slash", 'say "hi"', "it's",
         "tab\there", "a < b", "AT&T", "50% off", "x*y*z", "_under_", "`tick`", "#hash", "1. not a list"]

SHAPES = [
    lambda r, w: f"<p>{w()} <b>{w()}</b> and <i>{w()}</i>.</p>",
    lambda r, w: f"<h2>{w()}</h2><p>{w()} <a href=\"https://example.com/{r.randint(1, 99)}?q=a&amp;b\">{w()}</a></p>",
    lambda r, w: f"<ul><li>{w()}</li><li>{w()}<ul><li>{w()}</li></ul></li></ul>",
    lambda r, w: f"<pre><code class=\"language-swift\">let {w()} = \"\\n\"</code></pre>",
    lambda r, w: f"<blockquote><p>{w()}</p></blockquote><hr><p><code>{w()}</code></p>",
    lambda r, w: f"<p><b>unclosed {w()} <i>misnested</b> {w()}</i></p></p></div>",
    lambda r, w: f"<p>bare & ampersand &bogus; &#x1F600; {w()}<br>line two<p>no end tag {w()}",
    lambda r, w: f"<table><tr><td>{w()}</td><td>{w()}</td></tr></table><script>alert(1)</script>",
    lambda r, w: f"<p style=\"color: red\">{w()}</p><img src=\"/a.png\" alt=\"{w()}\"><p><u>{w()}</u> <s>{w()}</s></p>",
]

MALFORMED = [
    lambda i: "this is not JSON",
    lambda i: "[1, 2, 3]",
    lambda i: '"a string"',
    lambda i: json.dumps({"id": i, "html": "<p>x</p>"}) + " trailing",
    lambda i: json.dumps({"id": i, "body": "<p>no html field</p>"}),
    lambda i: json.dumps({"id": i, "html": None}),
    lambda i: json.dumps({"id": i, "html": 42.50}),
    lambda i: '{"id": %d, "html": "<p>lone \\ud800 surrogate</p>"}' % i,
    lambda i: '{"id": %d, "html": "<p>unterminated}' % i,
]


def record(r, i):
    def word():
        return r.choice(WORDS)
    body = "".join(r.choice(SHAPES)(r, word) for _ in range(r.randint(1, 4)))
    fields = {"id": i, "title": word(), "html": body, "price": 2.50, "tags": [word(), word()]}
    # Both escape styles: \u escapes (ensure_ascii) and raw UTF-8.
    text = json.dumps(fields, ensure_ascii=r.random() < 0.5)
    # A number written as it was, which a re-encoder would change.
    return text.replace('"price": 2.5', '"price": 2.50')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--seed", type=int, default=15)
    arguments = parser.parse_args()
    r = random.Random(arguments.seed)
    os.makedirs(arguments.folder, exist_ok=True)
    lines = [record(r, i) for i in range(arguments.records)]
    for n, make in enumerate(MALFORMED):
        for copy in range(2):
            lines.insert(r.randrange(len(lines)), make(arguments.records + 2 * n + copy))
    huge = {"id": "huge", "html": "<p>" + "big " * 100_000 + "</p>"}
    lines.insert(r.randrange(len(lines)), json.dumps(huge))
    for _ in range(5):
        lines.insert(r.randrange(len(lines)), "")
    per_file = -(-len(lines) // arguments.files)
    for k in range(arguments.files):
        chunk = lines[k * per_file:(k + 1) * per_file]
        last = k == arguments.files - 1
        with open(os.path.join(arguments.folder, f"articles-{k:02d}.jsonl"), "wb") as out:
            if last:
                out.write(b"\xef\xbb\xbf")
            out.write("".join(line + ("\r\n" if last else "\n") for line in chunk).encode("utf-8"))


if __name__ == "__main__":
    main()
