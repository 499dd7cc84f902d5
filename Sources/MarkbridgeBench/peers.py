#!/usr/bin/env python3
"""One peer's speed on one input file, for `markbridge-bench --peers` (not part of the Swift target).

    python3 peers.py PEER FILE [--min-runs N] [--min-seconds S]

PEER is one of:
  lexbor            selectolax's LexborHTMLParser over the file's bytes (the parse alone, as a
                    fragment, as Markbridge's `html-parse` parses one)
  html-to-markdown  html_to_markdown.convert (its Rust core), HTML -> Markdown; the bytes are
                    decoded to a Python str once, untimed
  cmark             cmark_markdown_to_html of Debian's libcmark (the library Markbridge links),
                    called in this process through ctypes, Markdown -> HTML, default options

Runs the conversion until at least N runs and S seconds have passed, after one untimed warm-up
run, and prints one tab-separated line:

    ok  PEER  VERSION  INPUT_BYTES  OUTPUT_SIZE  BEST_S  MEDIAN_S  RUNS  MAX_RSS_BYTES  BEST_CPU_S

(seconds of the wall clock, and of this process's CPU time, which a shared machine's other
processes do not inflate)

or, where the peer cannot be loaded:

    missing  PEER  HOW_TO_INSTALL

Standard library only; the peers are optional and CI never needs them.
"""

import ctypes
import ctypes.util
import resource
import statistics
import sys
import time


def lexbor(data):
    try:
        import selectolax
        from selectolax.lexbor import LexborHTMLParser
    except ImportError:
        return None, "pip install selectolax"

    def run():
        tree = LexborHTMLParser(data, is_fragment=True)
        return 1 if tree.root is not None else 0

    return (run, "selectolax " + getattr(selectolax, "__version__", "?")), None


def html_to_markdown(data):
    try:
        import html_to_markdown as module
    except ImportError:
        return None, "pip install html-to-markdown"
    text = data.decode("utf-8", errors="replace")

    def run():
        result = module.convert(text)
        content = getattr(result, "content", result)
        return len(content) if isinstance(content, str) else 1

    return (run, "html-to-markdown " + getattr(module, "__version__", "?")), None


def cmark(data):
    name = ctypes.util.find_library("cmark")
    if name is None:
        return None, "apt-get install libcmark-dev"
    try:
        library = ctypes.CDLL(name)
    except OSError:
        return None, "apt-get install libcmark-dev"
    library.cmark_markdown_to_html.restype = ctypes.c_void_p
    library.cmark_markdown_to_html.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
    library.cmark_version_string.restype = ctypes.c_char_p
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.free.argtypes = [ctypes.c_void_p]
    libc.strlen.restype = ctypes.c_size_t
    libc.strlen.argtypes = [ctypes.c_void_p]
    buffer = ctypes.create_string_buffer(data, len(data))

    def run():
        pointer = library.cmark_markdown_to_html(buffer, len(data), 0)
        size = libc.strlen(pointer)
        libc.free(pointer)
        return size

    return (run, "libcmark " + library.cmark_version_string().decode()), None


PEERS = {"lexbor": lexbor, "html-to-markdown": html_to_markdown, "cmark": cmark}


def main(arguments):
    if len(arguments) < 2 or arguments[0] not in PEERS:
        sys.stderr.write("usage: peers.py %s FILE [--min-runs N] [--min-seconds S]\n" % "|".join(PEERS))
        return 2
    peer, path = arguments[0], arguments[1]
    min_runs = int(arguments[arguments.index("--min-runs") + 1]) if "--min-runs" in arguments else 5
    min_seconds = float(arguments[arguments.index("--min-seconds") + 1]) if "--min-seconds" in arguments else 1.0
    with open(path, "rb") as handle:
        data = handle.read()
    loaded, install = PEERS[peer](data)
    if loaded is None:
        print("missing\t%s\t%s" % (peer, install))
        return 0
    run, version = loaded
    run()  # warm-up, untimed: first-use set-up is not the conversion's
    times = []
    cpu_times = []
    output = 0
    while len(times) < min_runs or sum(times) < min_seconds:
        start = time.perf_counter()
        start_cpu = time.process_time()
        output = run()
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - start_cpu)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print("\t".join(["ok", peer, version, str(len(data)), str(output), repr(min(times)),
                     repr(statistics.median(times)), str(len(times)), str(peak), repr(min(cpu_times))]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
