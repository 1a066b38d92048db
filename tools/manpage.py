#!/usr/bin/env python3
"""Generate ears(8), a roff man page, from the project's own documentation.

    python3 tools/manpage.py --root . --prefix /usr/local --output .build/ears.8

Where each part comes from:

  NAME, DESCRIPTION   README.md's opening paragraphs; docs/operations.md "Running it"
  SYNOPSIS, COMMANDS,
  OPTIONS             the usage text `ears --help` prints (Sources/EarsCLI/EarsMain.swift,
                      or the output of --ears BINARY --help), with README.md's commands table
  CONFIGURATION       docs/configuration.md
  (other sections)    every other "## " section of docs/operations.md, in order
  SIGNALS             docs/operations.md "## Signals" (a short fixed text when absent)
  EXIT STATUS         docs/operations.md "## Exit codes"
  ENVIRONMENT         docs/operations.md "## Environment" when present, else the variables
                      the docs mention, each with one fixed sentence
  FILES               docs/operations.md "## Install" table, and the sockets and models
                      the other sections describe
  SYSTEMD             docs/operations.md "## systemd" when present
  DIAGNOSTICS         docs/operations.md "## Troubleshooting..."
  SEE ALSO            README.md "## Documentation", as installed under PREFIX/share/doc/ears

The Markdown subset the docs use is converted: headings, paragraphs, `code`,
**bold**, *italic*, links, bullet and numbered lists, fenced and indented code,
block quotes and pipe tables (as .TP lists). Text is escaped for roff
(backslashes, leading dots and apostrophes, minus signs, non-ASCII as \\[uXXXX]).
Python standard library only; the output is written atomically.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------- roff text

NAMED_GLYPHS = {
    "\u2014": r"\(em", "\u2013": r"\(en", "\u2026": "...", "\u2018": r"\(oq", "\u2019": r"\(cq",
    "\u201c": r"\(lq", "\u201d": r"\(rq", "\u2192": r"\(->", "\u2190": r"\(<-", "\u00d7": r"\(mu",
    "\u2264": r"\(<=", "\u2265": r"\(>=", "\u00b1": r"\(+-", "\u00a0": r"\~",
}


def escape_chars(text, code=False):
    """Escapes plain text for a roff text line (not the start-of-line rule).

    In code every '-' is a minus sign (\\-); in prose only a '-' that starts a
    token (an option, a negative number) is, and word hyphens stay hyphens.
    """
    out = []
    for index, ch in enumerate(text):
        if ch == "\\":
            out.append(r"\e")
        elif ch == "-":
            before = text[index - 1] if index > 0 else " "
            out.append(r"\-" if code or not before.isalnum() else "-")
        elif ord(ch) > 126 or (ord(ch) < 32 and ch != "\t"):
            out.append(NAMED_GLYPHS.get(ch, r"\[u%04X]" % ord(ch)))
        else:
            out.append(ch)
    return "".join(out)


NO_HYPHEN = "\x02"


def nohyphen(roff):
    """Starts every word holding a NO_HYPHEN mark (every word when `everywhere`)
    with \\%, so roff never hyphenates it: a path or an option split at a
    line end reads wrong. \\% only works at the start of a word."""
    return re.sub(r"(?<!\S)(\S*%s\S*)" % NO_HYPHEN, lambda m: r"\%" + m.group(1).replace(NO_HYPHEN, ""), roff)


def nohyphen_all(roff):
    """\\% before every word with a letter in it (a tag is never hyphenated)."""
    return re.sub(r"(?<!\S)(?=\S*[A-Za-z])", lambda m: r"\%", roff)


def safe_line(line):
    """A roff text line may not start with '.' or "'" (control characters) or a space."""
    line = line.rstrip()
    if line.startswith((".", "'")):
        return r"\&" + line
    if line.startswith(" "):
        return r"\&" + line
    return line


def wrapped(line, width=80):
    """A filled text line broken at spaces into input lines of at most
    `width` bytes where possible (roff joins them again when filling)."""
    lines = []
    while len(line.encode()) > width and " " in line[1:]:
        cut = line.rfind(" ", 1, width + 1)
        if cut <= 0:
            cut = line.find(" ", 1)
        lines.append(safe_line(line[:cut]))
        line = line[cut:].lstrip(" ")
    lines.append(safe_line(line))
    return lines


def quoted_arg(text):
    """Plain text as one double-quoted macro argument."""
    return '"' + escape_chars(text).replace('"', r"\(dq") + '"'


CODE_SPAN = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)\)")
BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![*\w])")
MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>])")
SENTENCE_END = re.compile(r"(?:(?<=[a-z0-9)\]\"'][.?!])|(?<=\\fR[.?!])) +(?=[A-Z\\(])")


def inline(text):
    """Markdown inline text to roff (possibly several lines: one sentence each)."""
    spans = []

    def keep_code(match):
        spans.append(match.group(2).strip() if match.group(2).strip() else match.group(2))
        return "\x00%d\x00" % (len(spans) - 1)

    text = CODE_SPAN.sub(keep_code, text)
    text = LINK.sub(lambda m: m.group(1) + (" (" + m.group(2) + ")" if m.group(2).startswith(("http://", "https://")) and m.group(1) != m.group(2) else ""), text)
    text = MD_ESCAPE.sub(lambda m: "\x01%d\x01" % ord(m.group(1)), text)

    def restore(part, font):
        def code(match):
            body = re.sub(r"(?<!\S)(?=\S)", NO_HYPHEN, escape_chars(spans[int(match.group(1))], code=True))
            return body if font else r"\fB" + body + r"\fR"
        part = re.sub(r"\x00(\d+)\x00", code, part)
        return re.sub(r"\x01(\d+)\x01", lambda m: escape_chars(chr(int(m.group(1)))), part)

    # Escape the prose around the placeholders, then fonts, then put the code back.
    pieces = re.split(r"(\x00\d+\x00|\x01\d+\x01)", text)
    text = "".join(p if p.startswith(("\x00", "\x01")) else escape_chars(p) for p in pieces)
    out = []
    position = 0
    for match in BOLD.finditer(text):
        out.append(italic(restore(text[position:match.start()], False)))
        out.append(r"\fB" + restore(match.group(1), True) + r"\fR")
        position = match.end()
    out.append(italic(restore(text[position:], False)))
    result = nohyphen("".join(out))
    return "\n".join(safe_line(s) for s in SENTENCE_END.split(result.strip()) if s.strip())


def italic(text):
    return ITALIC.sub(lambda m: r"\fI" + m.group(1) + r"\fR", text)


def plain(text):
    """Markdown inline text reduced to plain words (for headings and tags in quotes)."""
    text = CODE_SPAN.sub(lambda m: m.group(2), text)
    text = LINK.sub(lambda m: m.group(1), text)
    text = MD_ESCAPE.sub(lambda m: m.group(1), text)
    return text.replace("**", "")


# ----------------------------------------------------------- markdown blocks

LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def parse_blocks(text):
    """Markdown text to a list of blocks:
    ("heading", level, text), ("para", text), ("code", [lines]),
    ("list", [(depth, marker, text)]), ("table", header, rows), ("quote", text)."""
    lines = text.splitlines()
    blocks = []
    i = 0

    def starts_block(line):
        return (line.startswith("```") or line.startswith("~~~") or HEADING.match(line)
                or line.lstrip().startswith("|") or LIST_ITEM.match(line) or line.startswith(">"))

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
        elif stripped.startswith("<!--"):
            while i < len(lines) and "-->" not in lines[i]:
                i += 1
            i += 1
        elif line.startswith(("```", "~~~")):
            fence = line[:3]
            i += 1
            code = []
            while i < len(lines) and not lines[i].startswith(fence):
                code.append(lines[i])
                i += 1
            i += 1
            blocks.append(("code", code))
        elif HEADING.match(line):
            match = HEADING.match(line)
            blocks.append(("heading", len(match.group(1)), match.group(2)))
            i += 1
        elif line.startswith("    ") or line.startswith("\t"):
            code = []
            while i < len(lines) and (lines[i].startswith(("    ", "\t")) or not lines[i].strip()):
                code.append(lines[i][4:] if lines[i].startswith("    ") else lines[i].lstrip("\t"))
                i += 1
            while code and not code[-1].strip():
                code.pop()
            blocks.append(("code", code))
        elif stripped.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(split_row(lines[i]))
                i += 1
            rows = [r for r in rows if not all(re.fullmatch(r":?-{1,}:?", c.strip()) for c in r if c.strip())]
            if rows:
                blocks.append(("table", rows[0], rows[1:]))
        elif LIST_ITEM.match(line):
            items = []
            while i < len(lines):
                match = LIST_ITEM.match(lines[i])
                if match:
                    items.append([len(match.group(1).expandtabs()), match.group(2), match.group(3)])
                    i += 1
                elif lines[i].strip() and lines[i].startswith((" ", "\t")) and items:
                    items[-1][2] += " " + lines[i].strip()
                    i += 1
                elif not lines[i].strip() and i + 1 < len(lines) and (
                        LIST_ITEM.match(lines[i + 1]) or lines[i + 1].startswith(("  ", "\t"))):
                    i += 1
                else:
                    break
            indents = sorted({item[0] for item in items})
            blocks.append(("list", [(indents.index(indent), marker, body) for indent, marker, body in items]))
        elif line.startswith(">"):
            quote = []
            while i < len(lines) and lines[i].startswith(">"):
                quote.append(lines[i][1:].strip())
                i += 1
            blocks.append(("quote", " ".join(quote)))
        else:
            para = [stripped]
            i += 1
            while i < len(lines) and lines[i].strip() and not starts_block(lines[i]):
                para.append(lines[i].strip())
                i += 1
            blocks.append(("para", " ".join(para)))
    return blocks


def split_row(line):
    """A pipe-table row to its cells; '\\|' is a literal bar (also inside code)."""
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line)]


def sections(text):
    """'## ' sections of a document: [(title, [blocks])], the text before the first under ''."""
    result = [("", [])]
    for block in parse_blocks(text):
        if block[0] == "heading" and block[1] == 1:
            continue  # the document's title
        if block[0] == "heading" and block[1] == 2:
            result.append((block[2], []))
        else:
            result[-1][1].append(block)
    return result


def section_key(title):
    """A heading as matched: plain lower-case text without a leading 'the'
    ("The systemd unit" matches "systemd")."""
    return re.sub(r"^the\s+", "", plain(title).strip().lower())


def find_section(doc_sections, *prefixes):
    for title, blocks in doc_sections:
        if section_key(title).startswith(prefixes):
            return title, blocks
    return None


# ------------------------------------------------------------------- output

class Roff:
    """Collects roff lines; drops paragraph macros that would be empty or redundant."""

    def __init__(self):
        self.lines = []

    def macro(self, name, *args):
        last = self.lines[-1].split(" ")[0] if self.lines else ""
        if name == ".PP" and last in (".SH", ".SS", ".PP", ".TH"):
            return
        if name in (".SH", ".SS", ".TP", ".IP") and last == ".PP":
            self.lines.pop()
        self.lines.append(" ".join((name,) + args))

    def text(self, roff_text, wrap=True):
        for line in roff_text.split("\n"):
            if line.startswith("."):
                self.lines.append(line.rstrip())  # a macro (text lines were made safe by inline())
            elif line.strip():
                self.lines.extend(wrapped(line.rstrip()) if wrap else [line.rstrip()])

    def section(self, title):
        self.macro(".SH", quoted_arg(title.upper()))

    def subsection(self, title):
        self.macro(".SS", quoted_arg(plain(title)))

    def tagged(self, tag_roff, body_roff, indent=None):
        """A .TP item: the tag must stay one input line, the body may wrap."""
        self.macro(".TP", *([str(indent)] if indent else []))
        self.lines.append(safe_line(nohyphen_all(" ".join(tag_roff.split("\n")))))
        self.text(body_roff)

    def code(self, lines):
        self.macro(".PP")
        self.macro(".RS", "4")
        self.macro(".nf")
        for line in lines:
            escaped = escape_chars(line.expandtabs(8), code=True)
            self.lines.append(safe_line(escaped) if escaped.strip() else r"\&")
        self.macro(".fi")
        self.macro(".RE")

    def blocks(self, blocks, substitute=lambda s: s):
        """Renders parsed Markdown blocks; headings become .SS."""
        for block in blocks:
            kind = block[0]
            if kind == "heading":
                self.subsection(substitute(block[2]))
            elif kind == "para":
                self.macro(".PP")
                self.text(inline(substitute(block[1])))
            elif kind == "quote":
                self.macro(".RS", "4")
                self.macro(".PP")
                self.text(inline(substitute(block[1])))
                self.macro(".RE")
            elif kind == "code":
                self.code([substitute(line) for line in block[1]])
            elif kind == "list":
                self.list(block[1], substitute)
            elif kind == "table":
                self.table(block[1], block[2], substitute)
        return self

    def list(self, items, substitute):
        depth = 0
        for level, marker, body in items:
            while depth < level:
                self.macro(".RS", "2" if depth == 0 else "4")
                depth += 1
            while depth > level:
                self.macro(".RE")
                depth -= 1
            if marker[0].isdigit():
                self.macro(".IP", quoted_arg(marker.rstrip(").") + "."), "4")
            else:
                self.macro(".IP", r"\(bu", "2")
            self.text(inline(substitute(body)))
        while depth > 0:
            self.macro(".RE")
            depth -= 1
        self.macro(".PP")

    def table(self, header, rows, substitute, tag_columns=None):
        """A pipe table as a .TP list: the first cell (the first two for a
        section/key table) is the tag, the second the body, any further cell
        a 'Header: value' line under it."""
        if tag_columns is None:
            tag_columns = 2 if [h.lower() for h in header[:2]] == ["section", "key"] and len(header) > 2 else 1
        for row in rows:
            row = [substitute(cell) for cell in row] + [""] * (len(header) - len(row))
            tag = " ".join(cell for cell in row[:tag_columns] if cell)
            body = []
            for index in range(tag_columns, len(header)):
                cell = row[index].strip()
                if not cell or cell in ("\u2014", "-", "\u2013"):
                    continue
                if index == tag_columns and len(header) == tag_columns + 1:
                    body.append(inline(cell))
                else:
                    body.append(r"\fI" + escape_chars(plain(header[index]).capitalize()) + r":\fR" + " " + inline(cell))
            self.tagged(inline(tag), "\n.br\n".join(body) if body else r"\&")
        self.macro(".PP")

    def render(self):
        # A paragraph macro at the very end, or before .SH/.SS, is empty.
        while self.lines and self.lines[-1] == ".PP":
            self.lines.pop()
        return "\n".join(self.lines) + "\n"


# -------------------------------------------------------------------- usage

def usage_text(root, binary):
    if binary:
        return subprocess.run([binary, "--help"], check=True, capture_output=True, text=True).stdout
    source = read(root, "Sources/EarsCLI/EarsMain.swift")
    match = re.search(r'usage\s*=\s*"""\n(.*?)\n(\s*)"""', source, re.S)
    if not match:
        sys.exit("manpage.py: no usage text in Sources/EarsCLI/EarsMain.swift")
    indent = match.group(2)
    return "\n".join(line[len(indent):] if line.startswith(indent) else line.strip()
                     for line in match.group(1).split("\n"))


def parse_usage(text):
    """{'usage': 'ears <command> [options]', 'commands': [(spec, what)], 'options': [...], 'options_title': ...}"""
    result = {"usage": "", "commands": [], "options": [], "options_title": ""}
    current = None
    for line in text.splitlines():
        if line.startswith("usage:"):
            result["usage"] = line[len("usage:"):].strip()
        elif line and not line[0].isspace() and line.rstrip().endswith(":"):
            title = line.rstrip()[:-1]
            current = "commands" if title.startswith("command") else "options"
            if current == "options":
                result["options_title"] = title
        elif current and line.strip():
            match = re.match(r"^\s+(\S.*?)(?:\s{2,}(\S.*))?$", line)
            if match:
                if match.group(2) is None and result[current]:
                    spec, what = result[current][-1]
                    result[current][-1] = (spec, what + " " + match.group(1))
                else:
                    result[current].append((match.group(1), match.group(2) or ""))
    return result


SPEC_TOKEN = re.compile(r"(\[|\]|\.\.\.|\||\s+)")


def spec_roff(spec, command_name="ears"):
    """A usage spec such as 'scan FILE... [--json]' with literal words bold and
    placeholders (all capitals) italic."""
    out = []
    for token in SPEC_TOKEN.split(spec):
        if not token:
            continue
        if token.isspace():
            out.append(" ")
        elif token in ("[", "]", "...", "|"):
            out.append(escape_chars(token))
        elif re.fullmatch(r"[A-Z][A-Z0-9_]*", token) or token in ("options", "command"):
            out.append(r"\fI" + escape_chars(token, code=True) + r"\fR")
        elif token.startswith("<") and token.endswith(">"):
            out.append(r"\fI" + escape_chars(token[1:-1], code=True) + r"\fR")
        else:
            out.append(r"\fB" + escape_chars(token, code=True) + r"\fR")
    return "".join(out)


def command_key(spec):
    words = []
    for word in spec.split():
        if word.startswith("[") or (words and (word.startswith("-") or word.isupper() or word.endswith("..."))):
            break
        words.append(word)
    return " ".join(words)


# ------------------------------------------------------------------- inputs

def read(root, relative):
    with open(os.path.join(root, relative), encoding="utf-8") as handle:
        return handle.read()


def read_optional(root, relative):
    try:
        return read(root, relative)
    except FileNotFoundError:
        return ""


def page_date(root, inputs):
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        stamp = int(epoch)
    else:
        stamp = max(os.path.getmtime(os.path.join(root, p)) for p in inputs if os.path.exists(os.path.join(root, p)))
    return datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).strftime("%Y-%m-%d")


ENVIRONMENT_FALLBACK = [
    ("RUNTIME_DIRECTORY", "Set by systemd's `RuntimeDirectory=`; the directory for `status.sock` and `listen.sock` when `[status] runtime_directory` is empty."),
    ("XDG_RUNTIME_DIR", "Without `RUNTIME_DIRECTORY`, the sockets live in `$XDG_RUNTIME_DIR/ears`, else in `/tmp/ears-<uid>`."),
    ("EARS_VOSK_LIBRARY", "The `libvosk.so` file to load; when set, the only place looked."),
    ("EARS_VOSK_MODEL", "The Vosk model directory when `[engine] model` is empty; when set, the only place looked."),
    ("NOTIFY_SOCKET", "Set by systemd for `Type=notify`: where ears sends `READY=1`, `STATUS=`, `RELOADING=1`, `STOPPING=1` and `WATCHDOG=1` (sd_notify(3)). Unset, ears runs the same without telling anyone."),
    ("WATCHDOG_USEC", "Set by systemd's `WatchdogSec=` (with `WATCHDOG_PID`): ears pings at half that period while its audio loop turns."),
    ("EARS_PHRASE", "Set for the hook program (`[capture] on_wake`): the phrase that woke ears; with `EARS_SCORE` (the match score) and `EARS_SOURCE` (`wake` or `tap`). Not read by ears."),
]

SIGNALS_FALLBACK = [
    ("SIGTERM, SIGINT", "Stop listening, close the sockets and exit with status 0."),
]

SEE_ALSO = [("arecord", "1"), ("journalctl", "1"), ("systemctl", "1"), ("sd_notify", "3"), ("systemd.exec", "5"),
            ("systemd.service", "5")]


# --------------------------------------------------------------------- main

def generate(root, prefix, sysconfdir, unit_dir, binary):
    readme = read(root, "README.md")
    operations_text = read(root, "docs/operations.md")
    configuration_text = read(root, "docs/configuration.md")
    all_docs = readme + operations_text + configuration_text
    operations = sections(operations_text)
    configuration = sections(configuration_text)
    readme_sections = sections(readme)
    version_match = re.search(r'static let version = "([^"]+)"', read_optional(root, "Sources/EarsDaemon/EarsProgram.swift"))
    version = version_match.group(1) if version_match else "unknown"
    usage = parse_usage(usage_text(root, binary))
    docdir = prefix.rstrip("/") + "/share/doc/ears"

    def installed(text):
        """The docs write installed paths with $PREFIX; the page names the real ones."""
        text = text.replace("$PREFIX/lib/systemd/system", unit_dir.rstrip("/"))
        text = text.replace("$SYSTEMD_UNIT_DIR", unit_dir.rstrip("/"))
        text = text.replace("$PREFIX", prefix.rstrip("/") or "/")
        if sysconfdir.rstrip("/") != "/etc":
            text = text.replace("/etc/ears/", sysconfdir.rstrip("/") + "/ears/")
        return text

    used = set()

    def take(*prefixes):
        found = find_section(operations, *prefixes)
        if found:
            used.add(found[0])
        return found

    page = Roff()
    inputs = ["README.md", "docs/operations.md", "docs/configuration.md", "Sources/EarsCLI/EarsMain.swift",
              "Sources/EarsDaemon/EarsProgram.swift", "tools/manpage.py"]
    page.lines.append(r'.\" Generated by tools/manpage.py from README.md, docs/*.md and the usage text; do not edit.')
    page.lines.append(".TH EARS 8 %s %s %s" % (page_date(root, inputs), quoted_arg("ears " + version),
                                               quoted_arg("System Manager's Manual")))

    # NAME: README's first sentence, "An always-on wake-phrase listener for Linux, in Swift."
    intro = [b for b in readme_sections[0][1] if b[0] == "para"]
    if not intro:
        intro = [b for b in readme_sections[0][1] if b[0] != "code"]
    first_sentence = plain(intro[0][1]).split(". ")[0] if intro else "wake-phrase listener"
    summary = re.sub(r"^(an?|the)\s+", "", first_sentence.split(",")[0].strip().rstrip("."), flags=re.I)
    page.section("NAME")
    page.text("ears " + r"\- " + escape_chars(summary))

    # SYNOPSIS: one line per command of the usage text.
    page.section("SYNOPSIS")
    page.macro(".nf")
    for spec, _ in usage["commands"]:
        line = r"\fBears\fR " + spec_roff(spec)
        if not spec.startswith("--"):
            line += " [" + r"\fIoptions\fR" + "]"
        page.lines.append(safe_line(line))
    if not any(spec.startswith("--help") for spec, _ in usage["commands"]):
        page.lines.append(r"\fBears\fR \fB\-\-help\fR")
    page.macro(".fi")

    # DESCRIPTION: README's opening paragraphs (up to its first code block).
    page.section("DESCRIPTION")
    for block in readme_sections[0][1]:
        if block[0] == "code":
            break
        page.blocks([block])
    running = take("running")
    if running:
        page.subsection(running[0])
        page.blocks(running[1], installed)

    # COMMANDS: the usage text, with README's fuller sentence where it has one.
    readme_commands = {}
    commands_section = find_section(readme_sections, "commands")
    if commands_section:
        for block in commands_section[1]:
            if block[0] == "table":
                for row in block[2]:
                    if len(row) > 1 and row[1].strip():
                        for spec in re.findall(r"`ears ([^`]+)`", row[0]):
                            readme_commands[command_key(spec)] = row[1]
    page.section("COMMANDS")
    for spec, what in usage["commands"]:
        body = readme_commands.get(command_key(spec))
        page.tagged(spec_roff(spec), inline(body) if body else inline(what))
    if not any(spec.startswith("--help") for spec, _ in usage["commands"]):
        page.tagged(r"\fB\-\-help\fR", inline("print the usage (also with no arguments)"))

    # OPTIONS: the usage text's option lines.
    page.section("OPTIONS")
    if usage["options_title"]:
        note = re.search(r"\((.*)\)", usage["options_title"])
        page.text(inline("Every command takes these options" + (" (they " + note.group(1) + ")." if note else ".")))
    for spec, what in usage["options"]:
        page.tagged(spec_roff(spec), inline(what))

    # CONFIGURATION: docs/configuration.md, its title dropped, sub-sections as .SS.
    page.section("CONFIGURATION")
    for index, (title, blocks) in enumerate(configuration):
        if index > 0:
            page.subsection(title)
        page.blocks(blocks, installed)

    # Every other operations.md section, in the order the document has them.
    special = ("install", "signals", "exit codes", "troubleshooting", "environment", "files", "systemd", "see also")
    signals = take("signals")
    exit_codes = take("exit codes")
    diagnostics = take("troubleshooting")
    environment = take("environment")
    files_section = take("files")
    systemd = take("systemd")
    install = take("install")
    for title, blocks in operations[1:]:
        if title in used or section_key(title).startswith(special):
            continue
        page.section(plain(title))
        page.blocks(blocks, installed)

    page.section("SIGNALS")
    if signals:
        page.blocks(signals[1], installed)
    else:
        for name, what in SIGNALS_FALLBACK:
            page.tagged(r"\fB" + escape_chars(name, code=True) + r"\fR", inline(what))

    page.section("EXIT STATUS")
    if exit_codes:
        page.blocks(exit_codes[1], installed)

    page.section("ENVIRONMENT")
    if environment:
        page.blocks(environment[1], installed)
    else:
        for name, what in ENVIRONMENT_FALLBACK:
            if name in all_docs:
                page.tagged(r"\fB" + escape_chars(name, code=True) + r"\fR", inline(what))

    page.section("FILES")
    if files_section:
        page.blocks(files_section[1], installed)
    if install:
        for block in install[1]:
            if block[0] == "table":
                page.table(block[1], block[2], installed)
    for pattern, tag in ((r"`<runtime dir>/status\.sock`", "<runtime dir>/status.sock"),
                         (r"\*\*listen\.sock\*\*", "<runtime dir>/listen.sock"),
                         (r"^PocketSphinx \(English", "/usr/share/pocketsphinx/model/en-us")):
        for title, blocks in operations:
            hit = next((text for text in block_texts(blocks) if re.search(pattern, text)), None)
            if hit:
                hit = re.sub(r"^" + re.escape("`" + tag + "`") + r",?\s*", "", hit)
                page.tagged(r"\fB" + escape_chars(tag, code=True) + r"\fR", inline(installed(hit)))
                break

    if systemd:
        page.section("SYSTEMD")
        page.blocks(systemd[1], installed)

    if diagnostics:
        page.section("DIAGNOSTICS")
        page.blocks(diagnostics[1], installed)

    page.section("SEE ALSO")
    page.text(",\n".join(r"\fB%s\fR(%s)" % (escape_chars(name, code=True), number) for name, number in SEE_ALSO))
    documentation = find_section(readme_sections, "documentation")
    if documentation:
        page.macro(".PP")
        page.text(inline("The full documentation is installed in `%s`:" % docdir))
        for block in documentation[1]:
            if block[0] == "list":
                for _, _, body in block[1]:
                    match = re.match(r"\[([^\]]+)\]\(([^)]+)\):?\s*(.*)$", body)
                    if match:
                        page.tagged(r"\fB" + escape_chars(docdir + "/" + match.group(2), code=True) + r"\fR",
                                    inline(match.group(3) or match.group(1)))
                    else:
                        page.tagged(r"\(bu", inline(body), 2)
    return page.render()


def block_texts(blocks):
    for block in blocks:
        if block[0] in ("para", "quote"):
            yield block[1]
        elif block[0] == "list":
            for _, _, body in block[1]:
                yield body


def main():
    parser = argparse.ArgumentParser(description="Generate ears(8) from the docs.")
    parser.add_argument("--root", default=".", help="the repository root")
    parser.add_argument("--prefix", default="/usr/local", help="installation prefix named in the page")
    parser.add_argument("--sysconfdir", default="/etc")
    parser.add_argument("--unit-dir", default=None, help="systemd unit directory (default PREFIX/lib/systemd/system)")
    parser.add_argument("--ears", default=None, help="take the usage text from BINARY --help instead of the source")
    parser.add_argument("--output", "-o", default="-", help="file to write (default stdout)")
    args = parser.parse_args()
    unit_dir = args.unit_dir or args.prefix.rstrip("/") + "/lib/systemd/system"
    text = generate(os.path.abspath(args.root), args.prefix, args.sysconfdir, unit_dir, args.ears)
    if args.output == "-":
        sys.stdout.write(text)
        return
    directory = os.path.dirname(os.path.abspath(args.output))
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".ears.8.", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, args.output)
    except BaseException:
        os.unlink(temporary)
        raise


if __name__ == "__main__":
    main()
