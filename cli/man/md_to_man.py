#!/usr/bin/env python3
"""md_to_man.py VERSION INPUT.md OUTPUT.1 -- the man page of a Markdown page.

docs/cli.md is the manual of the advlock command; `man advlock` is made from
it at build time so the two never drift apart. This converts the Markdown
that page uses, and nothing more: headings (# NAME(SECTION): title, ##, ###),
paragraphs, fenced code blocks, "- " lists, tables, `code`, **bold**,
*emphasis* and [links](...). Anything else (a quote, a numbered list, raw
HTML, a deeper heading) stops it with the line number, so a page it cannot
render fails the build instead of shipping a broken or empty man page.
"""
import re
import sys

TITLE = re.compile(r"^# ([a-z][a-z0-9_-]*)\(([1-9])\): (.+)$")
INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|\[([^\]]+)\]\(([^)]+)\)")
UNSUPPORTED = [
    (re.compile(r"^>"), "a block quote"),
    (re.compile(r"^\d+[.)] "), "a numbered list"),
    (re.compile(r"^<"), "raw HTML"),
    (re.compile(r"^#{4,} "), "a heading deeper than ###"),
    (re.compile(r"^(\*|\+) "), "a list item not written '- '"),
    (re.compile(r"^( {4}|\t)"), "an indented code block (use ``` fences)"),
]


class PageError(Exception):
    pass


def escape(text):
    """Text as roff reads it literally: backslashes, and '-' as a real minus
    (groff renders a bare '-' as a hyphen, which breaks copied options)."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def line_safe(text):
    """A line roff does not take for a request (one starting with . or ')."""
    return "\\&" + text if text[:1] in (".", "'") else text


def inline(text):
    out, pos = [], 0

    def plain(part):
        if "`" in part or "**" in part:
            raise PageError("unbalanced ` or ** in: " + text)
        return escape(part)

    for match in INLINE.finditer(text):
        out.append(plain(text[pos:match.start()]))
        code, strong, emphasis, link_text, target = match.groups()
        if code is not None:
            out.append("\\fB" + escape(code) + "\\fR")
        elif strong is not None:
            out.append("\\fB" + inline(strong) + "\\fR")
        elif emphasis is not None:
            out.append("\\fI" + inline(emphasis) + "\\fR")
        else:
            out.append(inline(link_text))
            if re.match(r"https?://", target):
                out.append(" <" + escape(target) + ">")
        pos = match.end()
    out.append(plain(text[pos:]))
    return "".join(out)


def table_cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def convert(lines, version):
    match = TITLE.match(lines[0]) if lines else None
    if not match:
        raise PageError("line 1: the page must start with '# NAME(SECTION): title', as '# advlock(1): ...'")
    name, section, title = match.groups()
    out = [
        '.\\" Generated from docs/cli.md by cli/man/md_to_man.py; edit that page, not this file.',
        '.TH "%s" "%s" "" "%s %s" "User Commands"' % (name.upper(), section, name, version),
        ".nh",  # no hyphenation: option names and paths must read as written
        ".ad l",
        ".SH NAME",
    ]
    body = []
    i = 1
    described = False
    while i < len(lines):
        line = lines[i]
        number = i + 1
        if not line.strip():
            i += 1
            continue
        if line.startswith("```"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
            if end is None:
                raise PageError("line %d: a code block that is never closed" % number)
            body += [".PP", ".RS 2", ".nf"] + [line_safe(escape(code)) for code in lines[i + 1:end]] + [".fi", ".RE"]
            i = end + 1
            continue
        if line.startswith("## "):
            body += ['.SH "%s"' % inline(line[3:]).replace('"', '""')]
            i += 1
            continue
        if line.startswith("### "):
            body += ['.SS "%s"' % inline(line[4:]).replace('"', '""')]
            i += 1
            continue
        if line.startswith("# "):
            raise PageError("line %d: a second '# ' title" % number)
        for pattern, what in UNSUPPORTED:
            if pattern.match(line):
                raise PageError("line %d: %s, which md_to_man.py does not convert: %s" % (number, what, line))
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(table_cells(lines[i]))
                i += 1
            if len(rows) < 2 or not all(re.fullmatch(r":?-+:?", cell) for cell in rows[1]):
                raise PageError("line %d: a table without its |---| line" % number)
            # A two-column table reads as a man page's tagged list (as EXIT
            # STATUS sections are); the header row names the columns.
            body += [".PP", inline(" \u2014 ".join(rows[0]).capitalize()) + ":"]
            for row in rows[2:]:
                if len(row) != len(rows[0]):
                    raise PageError("line %d: a table row of %d cells, not %d" % (number, len(row), len(rows[0])))
                body += [".TP", line_safe(inline(row[0])), line_safe(inline(" \u2014 ".join(row[1:])))]
            continue
        if line.startswith("- "):
            item = [line[2:]]
            i += 1
            while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
                item.append(lines[i].strip())
                i += 1
            body += [".IP \\(bu 2", line_safe(inline(" ".join(item)))]
            continue
        paragraph = []
        while i < len(lines) and lines[i].strip() and not re.match(r"(```|#|\||- )", lines[i]):
            for pattern, what in UNSUPPORTED[:3]:
                if pattern.match(lines[i]):
                    raise PageError("line %d: %s, which md_to_man.py does not convert" % (i + 1, what))
            paragraph.append(lines[i].strip())
            i += 1
        text = " ".join(paragraph)
        if not described:
            # NAME is "name \- what it does": the page's first sentence when it
            # is about the command ("`advlock` keeps jobs ..."), else the title.
            first = re.match(r"`%s` ([^.]+)\." % re.escape(name), text)
            out.append("%s \\- %s" % (name, escape(first.group(1) if first else title)))
            body = [".SH DESCRIPTION"] + body
            described = True
        body += [".PP", line_safe(inline(text))]
    if not described:
        raise PageError("the page has no text after its title")
    page = out + body
    if sum(1 for line in page if line.startswith(".SH")) < 3:
        raise PageError("fewer than two sections: is this the right page?")
    return "\n".join(page) + "\n"


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: md_to_man.py VERSION INPUT.md OUTPUT.1\n")
        return 64
    version, source, target = argv[1:]
    try:
        with open(source, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        page = convert(lines, version)
    except (OSError, UnicodeDecodeError, PageError) as error:
        sys.stderr.write("md_to_man.py: %s: %s\n" % (source, error))
        return 1
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
