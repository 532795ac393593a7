#!/usr/bin/env python3
# Copyright (C) 2026 The Boost.ForkJoin authors.
# Distributed under the Boost Software License, Version 1.0. (See LICENSE_1_0.txt)
#
# The documentation's checks (test/doc/CMakeLists.txt runs them):
#
#   extract ROOT OUT      writes the ```cpp blocks of README.md and doc/**/*.md as sources into
#                         OUT: each complete program (a block with `int main`) alone, and the
#                         other blocks of a file (fragments) together in one translation unit,
#                         each with a #line directive, so that a compiler's message names the
#                         markdown file and line. Writes OUT/blocks.cmake, the list for CMake.
#   links ROOT            checks every link of those files that is not a URL: the file or folder
#                         exists, and an #anchor is the GitHub slug of a heading of its target.
#   declarations ROOT     checks the declaration blocks (below) against the library's headers:
#                         a function's name is followed by `(` there, a class's follows `class`
#                         or `struct`, and every other name occurs.
#   compile-line ROOT CXX WORKDIR
#                         compiles README's first program with README's own command line for
#                         use without CMake (the ```sh block that links -lboost_thread), with
#                         CXX for its compiler and this checkout for path/to/boost_fork_join,
#                         then runs it.
#   b2-jamroot ROOT B2 WORKDIR
#                         builds README's first program with README's Jamroot for b2 (the block
#                         with `use-project /boost_fork_join`), this checkout for
#                         path/to/boost_fork_join, then runs it.
#
# A fragment is compiled at namespace scope after the library's public headers and the standard
# headers the documentation uses, in a namespace of its own. The line before its fence may say
# otherwise, with an HTML comment (GitHub does not render it):
#   <!-- fragment: function -->     the block is the body of a function
#   <!-- fragment: namespace; continues -->
#                                   it sees the names of the file's previous compiled fragment
#   <!-- fragment: function; given: long a = 0; -->
#                                   the code after `given:` comes first (what the prose
#                                   assumes: a pool, the user's own functions)
#   <!-- declarations -->           a synopsis or signatures, checked by `declarations`
#   <!-- not compiled: reason -->   neither (kept few: code of other libraries, for comparison)
# A file may set its default for unmarked fragments with <!-- default fragment: declarations -->
# (reference.md: member signatures cannot be compiled out of their class).

import glob
import os
import re
import subprocess
import sys

PUBLIC_HEADERS = [
    "boost/thread/executors/basic_thread_pool.hpp",  # Boost's: the migration guide's "before" code
    "boost/thread/executors/algorithm.hpp",
    "boost/thread/executors/fork_join.hpp",
    "boost/thread/executors/fork_join_trace.hpp",
    "boost/thread/executors/task_block.hpp",
    "boost/thread/executors/cancellation.hpp",
]
STD_HEADERS = ["algorithm", "cmath", "cstddef", "cstdint", "cstdio", "fstream", "functional",
               "numeric", "stdexcept", "string", "vector"]

FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
MARKER = re.compile(r"^<!--\s*(fragment|not compiled|declarations|default fragment)\s*(?::\s*(.*?))?\s*-->$", re.S)


def markdown_files(root):
    files = [os.path.join(root, "README.md")]
    files += sorted(glob.glob(os.path.join(root, "doc", "**", "*.md"), recursive=True))
    return files


class Block:
    def __init__(self, path, line, lang, lines, marker):
        self.path = path      # relative to the root
        self.line = line      # 1-based line of the first line of code
        self.lang = lang
        self.lines = lines
        self.marker = marker  # (kind, argument) or None

    def is_program(self):
        return any(re.search(r"\bint\s+main\s*\(", l) for l in self.lines)


def parse(root, path):
    """The fenced blocks of a markdown file, with the marker comment that precedes each."""
    rel = os.path.relpath(path, root)
    text = open(path, encoding="utf-8").read().split("\n")
    blocks = []
    default = None
    i = 0
    while i < len(text):
        m = FENCE.match(text[i])
        if not m:
            dm = MARKER.match(text[i].strip())
            if dm and dm.group(1) == "default fragment":
                default = dm.group(2)
            i += 1
            continue
        j = i + 1
        while j < len(text) and not re.match(r"^\s*```\s*$", text[j]):
            j += 1
        # The marker: an HTML comment ending on the nearest non-blank line before the fence.
        k = i - 1
        while k >= 0 and not text[k].strip():
            k -= 1
        marker = None
        if k >= 0 and text[k].strip().endswith("-->"):
            start = k
            while start >= 0 and "<!--" not in text[start]:
                start -= 1
            mm = MARKER.match(" ".join(t.strip() for t in text[start:k + 1]))
            if mm and mm.group(1) != "default fragment":
                marker = (mm.group(1), mm.group(2) or "")
        indent = len(m.group(1))
        blocks.append(Block(rel, i + 2, m.group(2), [l[indent:] for l in text[i + 1:j]], marker))
        i = j + 1
    for b in blocks:
        if b.marker is None and default and b.lang == "cpp" and not b.is_program():
            b.marker = ("declarations", "")
    return blocks


def kind_of(b):
    """program, namespace, function, declarations or skip; continues; given code."""
    if b.is_program():
        return "program", False, ""
    if b.marker is None:
        return "namespace", False, ""
    kind, arg = b.marker
    if kind == "not compiled":
        if not arg:
            sys.exit("%s:%d: <!-- not compiled: ... --> must give its reason" % (b.path, b.line))
        return "skip", False, ""
    if kind == "declarations":
        return "declarations", False, ""
    head, _, given = arg.partition("given:")
    words = head.replace(";", " ").split()
    if not words or words[0] not in ("namespace", "function") or any(w != "continues" for w in words[1:]):
        sys.exit("%s:%d: unknown fragment marker %r" % (b.path, b.line, arg))
    return words[0], "continues" in words[1:], given.strip()


def write_if_changed(path, text):
    if os.path.exists(path) and open(path, encoding="utf-8").read() == text:
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def stem(rel):
    return re.sub(r"[^A-Za-z0-9]+", "_", os.path.splitext(rel)[0]).strip("_").lower()


def split_includes(b):
    """The block's #include lines, and its lines with those blanked (line numbers kept)."""
    includes, body = [], []
    for n, l in enumerate(b.lines):
        if l.startswith("#include"):
            includes.append('#line %d "%s"\n%s' % (b.line + n, b.path, l))
            body.append("")
        else:
            body.append(l)
    return includes, body


def extract(root, out):
    os.makedirs(out, exist_ok=True)
    programs, fragments = [], []
    counts = {}
    for path in markdown_files(root):
        blocks = [b for b in parse(root, path) if b.lang == "cpp"]
        base = "doc_" + stem(re.sub(r"^doc/", "", os.path.relpath(path, root)))
        numbered = 0  # programs are numbered in their file: edits above them keep their names
        head = ["// Generated from %s by test/doc/doc_blocks.py." % os.path.relpath(path, root)]
        includes, bodies = [], []
        previous = None
        for b in blocks:
            kind, continues, given = kind_of(b)
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "program":
                numbered += 1
                name = "%s_%d" % (base, numbered)
                write_if_changed(os.path.join(out, name + ".cpp"),
                                 "\n".join(head + ['#line %d "%s"' % (b.line, b.path)] + b.lines) + "\n")
                programs.append(name)
            elif kind in ("namespace", "function"):
                inc, body = split_includes(b)
                includes += inc
                ns = "doc_%d" % b.line
                text = ["namespace %s {" % ns]
                if continues:
                    if previous is None:
                        sys.exit("%s:%d: `continues`, but no block before it" % (b.path, b.line))
                    text.append("using namespace %s;" % previous)
                if kind == "function":
                    text.append("[[maybe_unused]] void fragment() {")
                if given:
                    text.append(given)
                text.append('#line %d "%s"' % (b.line, b.path))
                text += body
                text.append("}" if kind == "namespace" else "}}")
                bodies.append("\n".join(text))
                previous = ns
        if bodies:
            name = base + "_fragments"
            top = head + ["#include <%s>" % h for h in PUBLIC_HEADERS] + ["#include <%s>" % h for h in STD_HEADERS]
            write_if_changed(os.path.join(out, name + ".cpp"), "\n".join(top + includes + bodies) + "\n")
            fragments.append(name)
    cmake = ["# Generated by test/doc/doc_blocks.py extract.",
             "set(fj_doc_programs %s)" % " ".join(programs),
             "set(fj_doc_fragments %s)" % " ".join(fragments),
             "set(fj_doc_counts \"%s\")" % ", ".join("%s %d" % kv for kv in sorted(counts.items()))]
    write_if_changed(os.path.join(out, "blocks.cmake"), "\n".join(cmake) + "\n")


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # a link's text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(path, cache={}):
    if path not in cache:
        seen, result = {}, set()
        in_code = False
        for l in open(path, encoding="utf-8").read().split("\n"):
            if re.match(r"^\s*```", l):
                in_code = not in_code
                continue
            if in_code:
                continue
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", l)
            if m:
                s = slug(m.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                result.add(s if n == 0 else "%s-%d" % (s, n))
            for a in re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", l):
                result.add(a)
        cache[path] = result
    return cache[path]


def links(root):
    errors, count = [], 0
    for path in markdown_files(root):
        rel = os.path.relpath(path, root)
        in_code = False
        for n, l in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
            if re.match(r"^\s*```", l):
                in_code = not in_code
                continue
            if in_code:
                continue
            l = re.sub(r"`[^`]*`", "", l)  # code spans hold no links
            for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", l) + re.findall(r"^\s*\[[^\]]+\]:\s*(\S+)", l):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # a URL (http:, mailto:, ...)
                    continue
                count += 1
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.exists(dest):
                    errors.append("%s:%d: link to a missing file: %s" % (rel, n, target))
                elif anchor and dest.endswith(".md") and anchor not in anchors_of(dest):
                    errors.append("%s:%d: no heading of %s has the anchor #%s" % (rel, n, os.path.relpath(dest, root), anchor))
    for e in errors:
        print(e)
    print("%d links checked in %d files, %d broken" % (count, len(markdown_files(root)), len(errors)))
    return 1 if errors else 0


KEYWORDS = set("""alignas alignof and asm auto bool break case catch char char16_t char32_t class const
constexpr const_cast continue decltype default delete do double dynamic_cast else enum explicit
export extern false float for friend goto if inline int long mutable namespace new noexcept not
nullptr operator or private protected public register reinterpret_cast return short signed sizeof
static static_assert static_cast struct switch template this thread_local throw true try typedef
typeid typename union unsigned using virtual void volatile wchar_t while override final""".split())


def declarations(root):
    # A name the docs call or declare as a function must be followed by `(` somewhere in the
    # headers, a class's must follow `class` or `struct`, any other name must occur.
    words, functions, classes = set(), set(), set()
    for h in glob.glob(os.path.join(root, "boost", "**", "*.hpp"), recursive=True):
        text = open(h, encoding="utf-8").read()
        words.update(re.findall(r"\w+", text))
        functions.update(re.findall(r"(\w+)\s*\(", text))
        classes.update(re.findall(r"\b(?:class|struct)\s+(\w+)", text))
    errors, blocks, names = [], 0, 0
    for path in markdown_files(root):
        for b in parse(root, path):
            if b.lang != "cpp" or kind_of(b)[0] != "declarations":
                continue
            blocks += 1
            for n, l in enumerate(b.lines):
                l = re.sub(r"//.*", "", l)
                l = re.sub(r"\"[^\"]*\"", "", l)
                for m in re.finditer(r"\b(?:(class|struct)\s+)?([A-Za-z_]\w*)\b(\s*\()?", l):
                    name = m.group(2)
                    if name in KEYWORDS or name.startswith("BOOST_"):
                        continue
                    names += 1
                    if m.group(1) and name not in classes:
                        errors.append("%s:%d: no header of boost/ defines a class %s" % (b.path, b.line + n, name))
                    elif m.group(3) and name not in functions:
                        errors.append("%s:%d: no header of boost/ has a function %s" % (b.path, b.line + n, name))
                    elif name not in words:
                        errors.append("%s:%d: %s appears in no header of boost/" % (b.path, b.line + n, name))
    for e in errors:
        print(e)
    print("%d declaration blocks, %d names checked against the headers, %d unknown" % (blocks, names, len(errors)))
    return 1 if errors else 0


def readme_setup(root, workdir, lang, needle, what):
    """README's block of language `lang` that contains `needle` (which must name app.cpp and
    path/to/boost_fork_join), and README's first program written to WORKDIR/app.cpp."""
    blocks = parse(root, os.path.join(root, "README.md"))
    program = next(b for b in blocks if b.lang == "cpp" and b.is_program())
    found = [b for b in blocks if b.lang == lang and any(needle in l for l in b.lines)]
    if len(found) != 1:
        sys.exit("README.md: expected one ```%s block with %s (%s), found %d" % (lang, what, needle, len(found)))
    text = "\n".join(found[0].lines)
    if "app.cpp" not in text or "path/to/boost_fork_join" not in text:
        sys.exit("README.md:%d: %s must build app.cpp from path/to/boost_fork_join" % (found[0].line, what))
    os.makedirs(workdir, exist_ok=True)
    with open(os.path.join(workdir, "app.cpp"), "w", encoding="utf-8") as f:
        f.write("\n".join(program.lines) + "\n")
    return found[0]


def compile_line(root, cxx, workdir):
    block = readme_setup(root, workdir, "sh", "-lboost_thread", "the compile line")
    words = " ".join(block.lines).split()
    words = [cxx] + [root if w == "path/to/boost_fork_join" else w for w in words[1:]]
    print("README.md:%d, in %s: %s" % (block.line, workdir, " ".join(words)), flush=True)
    subprocess.run(words, cwd=workdir, check=True)
    subprocess.run([os.path.join(workdir, "app")], cwd=workdir, check=True)
    return 0


def b2_jamroot(root, b2, workdir):
    block = readme_setup(root, workdir, "", "use-project /boost_fork_join", "the Jamroot")
    jamroot = "\n".join(block.lines).replace("path/to/boost_fork_join", root) + "\n"
    with open(os.path.join(workdir, "Jamroot"), "w", encoding="utf-8") as f:
        f.write(jamroot)
    print("README.md:%d, in %s: %s\n%s" % (block.line, workdir, b2, jamroot), flush=True)
    subprocess.run([b2], cwd=workdir, check=True)
    apps = [os.path.join(d, "app") for d, _, files in os.walk(os.path.join(workdir, "bin")) if "app" in files]
    if len(apps) != 1:
        sys.exit("b2 built %d programs named app under %s/bin" % (len(apps), workdir))
    subprocess.run(apps, cwd=workdir, check=True)
    return 0


def main(argv):
    if len(argv) == 3 and argv[0] == "extract":
        return extract(os.path.abspath(argv[1]), argv[2]) or 0
    if len(argv) == 2 and argv[0] == "links":
        return links(os.path.abspath(argv[1]))
    if len(argv) == 2 and argv[0] == "declarations":
        return declarations(os.path.abspath(argv[1]))
    if len(argv) == 4 and argv[0] == "compile-line":
        return compile_line(os.path.abspath(argv[1]), argv[2], os.path.abspath(argv[3]))
    if len(argv) == 4 and argv[0] == "b2-jamroot":
        return b2_jamroot(os.path.abspath(argv[1]), argv[2], os.path.abspath(argv[3]))
    sys.exit("usage: doc_blocks.py extract ROOT OUT | links ROOT | declarations ROOT | "
             "compile-line ROOT CXX WORKDIR | b2-jamroot ROOT B2 WORKDIR")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
