import Markbridge
import MarkbridgeCLI
import Testing

/// `--detect hashtags,mentions,urls` on `convert`, `batch`, `diff` and `check`: entities found in
/// what the reader read, marked up before anything is written or compared.
@Suite("markbridge --detect")
struct DetectCommandTests {
    static func output(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("Plain text to markup JSON: a hashtag, a mention beside an e-mail address, a web address with its trailing period trimmed")
    func convertText() {
        let files = MemoryFileSystem(files: ["post.txt": "Ramen with @ana (ana@example.com) #東京 https://example.com/r.\n"])
        let result = run("convert", "--detect", "hashtags,mentions,urls", "post.txt", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output(
            #"{"version":1,"offsetUnit":"utf16","paragraphs":[{"type":"P","text":"Ramen with @ana (ana@example.com) #東京 https://example.com/r.","markups":[{"type":"MENTION","start":11,"end":15,"name":"ana"},{"type":"HASHTAG","start":34,"end":37,"tag":"東京"},{"type":"LINK","start":38,"end":59,"href":"https://example.com/r"}]}]}"# + "\n")))
    }

    @Test("Link templates: the app's own scheme is let through, the value percent-encoded, in HTML out")
    func linkTemplates() {
        let files = MemoryFileSystem(files: ["post.md": "Lunch #東京 with @ana\n"])
        let result = run("convert", "--to", "html", "--detect", "hashtags,mentions", "--hashtag-url", "app://hashtag?tag={tag}",
                         "--mention-url", "app://user/{name}", "post.md", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output(
            #"<p>Lunch <a href="app://hashtag?tag=%E6%9D%B1%E4%BA%AC"><span class="hashtag" data-tag="東京">#東京</span></a> with <a href="app://user/ana"><span class="mention" data-name="ana">@ana</span></a></p>"# + "\n")))
    }

    @Test("Never in code: a Markdown code span and a fenced block keep their # and @ as text")
    func notInCode() {
        let files = MemoryFileSystem(files: ["a.md": "`#no` #yes\n\n```\n#no @no\n```\n"])
        let result = run("convert", "--to", "html", "--detect", "hashtags,mentions", "a.md", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output(
            ##"<p style="white-space:pre-wrap"><code>#no</code> <span class="hashtag" data-tag="yes">#yes</span></p>"## + "\n" + "<pre><code>#no @no</code></pre>\n")))
    }

    @Test("A template's values are in before detection: #{topic} becomes a hashtag")
    func templateThenDetect() {
        let files = MemoryFileSystem(files: ["t.txt": "Trending: #{topic}\n"])
        let result = run("convert", "--to", "html", "--template", "--arg", "topic=sushi", "--detect", "hashtags", "t.txt", files: files)
        #expect(result == CommandResult(exitCode: 0, standardOutput: Self.output(
            #"<p>Trending: <span class="hashtag" data-tag="sushi">#sushi</span></p>"# + "\n")))
    }

    @Test("Usage errors name the option", arguments: [
        (["--detect", "tags"], "Error: --detect: unknown entity kind 'tags' (expected one of: hashtags, mentions, urls)"),
        (["--hashtag-url", "app://t/{tag}"], "Error: --hashtag-url needs --detect hashtags"),
        (["--detect", "mentions", "--hashtag-url", "app://t/{tag}"], "Error: --detect: --hashtag-url needs hashtags in --detect"),
        (["--detect", "hashtags", "--hashtag-url", "javascript:go({tag})"],
         "Error: --detect: 'javascript:go({tag})' uses the javascript: scheme, which is never linked to"),
        (["--detect", "mentions", "--mention-url", "app://u/"], "Error: --detect: 'app://u/' has no {name} to put the value in"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let files = MemoryFileSystem(files: ["a.txt": "x\n"])
        let result = MarkbridgeCommandLine.run(["convert"] + arguments + ["a.txt"], io: files.io)
        #expect(result.exitCode == 64)
        #expect(result.standardError.hasPrefix(message + "\n"), "\(result.standardError)")
    }

    @Test("batch --detect marks up every record")
    func batch() async {
        let folder = ScratchFolder()
        let input = folder.write("in.jsonl", #"{"id":1,"body":"hi @ana #go"}"# + "\n")
        #expect(await runBatch("--field", "body", "--from", "text", "--to", "html", "--detect", "hashtags,mentions", "-o", folder.file("out.jsonl"), input).status == 0)
        #expect(folder.read("out.jsonl") == #"{"id":1,"body":"<p>hi <span class=\"mention\" data-name=\"ana\">@ana</span> <span class=\"hashtag\" data-tag=\"go\">#go</span></p>\n"}"# + "\n")
    }

    @Test("check --detect: hashtags through Markdown without HTML come back by detection, so nothing is lost")
    func check() {
        let files = MemoryFileSystem(files: ["a.txt": "See #sushi and @ana\n"])
        let lossy = MarkbridgeCommandLine.run(["check", "--via", "markdown", "--markdown-html", "drop", "--detect", "hashtags,mentions", "a.txt"], io: files.io)
        #expect(lossy.exitCode == 0, "\(lossy)")
    }
}
