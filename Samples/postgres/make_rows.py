"""Writes the PostgreSQL sample's test rows as JSON Lines, {"id": N, "title": ..., "body": ...},
the same bytes for the same seed.

    python3 make_rows.py FILE [--rows N] [--first-id K] [--seed S]

Bodies are HTML, much of it malformed (unclosed, misnested and stray tags, bare ampersands, an
unclosed comment), with backslashes, both quotes, non-ASCII text (Cyrillic, CJK, Arabic, combining
marks, emoji), tabs, CR LF and U+2028 inside. About 1% are NULL and three are over the test's
--max-record-bytes (100000): those become dead letters. One of the three (the 100th row) is
Cyrillic, two bytes a character, and longer than batch's 256 KiB pieces, so that batch
measures it rather than holding it, and the 1,024 bytes its dead letter keeps end inside a
character with the first run's ids. A few are empty strings, which convert.
"""

import argparse
import json
import random

PIECES = ["C:\\Users\\x", "\\n is not a newline", 'say "hi"', "it's", "статья", "記事の変換", "مقالة",
          "e\u0301 combining", "emoji \U0001F680\U0001F469\u200D\U0001F4BB", "tab\there", "line\r\nbreak",
          "sep\u2028arator", "a < b && c > d", "50%", "*not emphasis*", "_x_", "back`tick", "#1", "\\\\", "\u00a0nbsp"]

SHAPES = [
    "<p>{0} <b>{1}</b> <i>{2}</i></p>",
    "<h3>{0}</h3><p><a href=\"https://example.com/?a=1&amp;b={1}\">{2}</a></p>",
    "<ul><li>{0}<li>{1}</ul><ol start=\"3\"><li>{2}</li></ol>",
    "<p><b>unclosed {0} <i>misnested</b> {1}</i></p></p></span>{2}",
    "<p>bare & amp &nosuch; &#x1F600; {0}<br>{1}<p>no end {2}",
    "<pre>{0}\n  {1}\n{2}</pre>",
    "<blockquote>{0}<blockquote>{1}</blockquote></blockquote><!-- unclosed {2}",
    "<div><span style=\"color:#c00\">{0}</span><u>{1}</u><s>{2}</s></div><script>x = '{0}'</script>",
    "{0} {1} plain text without tags {2}",
]


def body(r):
    parts = []
    for _ in range(r.randint(1, 5)):
        shape = r.choice(SHAPES)
        parts.append(shape.format(*(r.choice(PIECES) for _ in range(3))))
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--first-id", type=int, default=1)
    parser.add_argument("--seed", type=int, default=15)
    arguments = parser.parse_args()
    r = random.Random(arguments.seed)
    huge = set(r.sample(range(arguments.rows), 2)) - {99}
    with open(arguments.file, "w", encoding="utf-8") as out:
        for n in range(arguments.rows):
            roll = r.random()
            if n == 99:
                value = "<p>" + "статья" * 25_000 + "</p>"
            elif n in huge:
                value = "<p>" + "huge " * 40_000 + "</p>"
            elif roll < 0.01:
                value = None
            elif roll < 0.015:
                value = ""
            else:
                value = body(r)
            row = {"id": arguments.first_id + n, "title": r.choice(PIECES), "body": value}
            out.write(json.dumps(row, ensure_ascii=r.random() < 0.5) + "\n")


if __name__ == "__main__":
    main()
