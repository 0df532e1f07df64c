#!/usr/bin/env bash
# Checks that the repository stands alone (docs/HOUSE-RULES.md §11): what the docs and the code cite exists here.
#
#   docs/check-references.sh            (or: make check-docs) from anywhere inside the repository
#
# It fails, naming file and line, when
#   - ARCHITECTURE.md, README.md or a page docs/*.md (RELIABILITY.md, HOUSE-RULES.md, …) names
#     - a path under Tests/, Sources/, hardware/, deploy/, bench/, config/ or docs/ that does not exist;
#     - a `…Tests.swift` file, or a `…Tests` suite or test target, that no test file declares;
#     - a test function that is not a function of the file, suite or target it is cited under
#       (`Tests/X/FooTests.swift` — `aTest`, `another`; `FooTests`: `aTest`; `AubadeCoreTests` `aTest`), or a
#       function of a HIL scenario or browser test that its file does not define;
#     - a test-shaped name (`aTestLikeThisOne`) that appears nowhere in the code, wherever it is cited;
#   - a source file (Swift comments, test titles and messages; scripts) or one of those docs cites a rule Rn that
#     docs/RELIABILITY.md does not define (a "### Rn —" heading), a house rule "docs/HOUSE-RULES.md §N" that
#     docs/HOUSE-RULES.md does not define (a "## N." heading), or writes "house rule N" without naming the file;
#   - any of them points outside the repository: "DESIGN.md", "../shared", "shared/reference", or one of the
#     notes the project was designed from (style-research.md, swift-probe.md, …).
# Needs bash and python3 (standard library only).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os
import re
import sys

DOCS = ["ARCHITECTURE.md", "README.md"] + sorted(os.path.join("docs", n) for n in os.listdir("docs") if n.endswith(".md"))
errors = []
cited = {"tests": 0, "paths": 0}


def fail(path, text, pos, message):
    line = text.count("\n", 0, pos) + 1
    errors.append(f"{path}:{line}: {message}")


def files_under(top, suffixes):
    found = []
    for folder, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [os.path.join(folder, n) for n in sorted(names) if n.endswith(suffixes)]
    return found


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# ---- What exists: the rules, the test files, their suites and @Test functions ----

reliability = read("docs/RELIABILITY.md")
rules = {int(n) for n in re.findall(r"^### R(\d+) —", reliability, re.M)}
house = read("docs/HOUSE-RULES.md")
house_rules = {int(n) for n in re.findall(r"^## (\d+)\. ", house, re.M)}
if not rules or not house_rules:
    sys.exit("check-references: no rules found in docs/RELIABILITY.md or docs/HOUSE-RULES.md (headings changed?)")

test_files = files_under("Tests", (".swift",))
tests_in = {}  # file -> set of test function names
funcs_in = {}  # file -> every function it defines (a cited helper, e.g. the check a harness runs)
types_in = {}  # file -> set of type names declared or extended
for path in test_files:
    text = read(path)
    names = set()
    for m in re.finditer(r"@Test\b", text):
        f = re.compile(r"\bfunc\s+(\w+)").search(text, m.end())
        if f:
            names.add(f.group(1))
    names |= set(re.findall(r"\bfunc\s+(test\w+)\s*\(", text))  # XCTest
    tests_in[path] = names
    funcs_in[path] = set(re.findall(r"\bfunc\s+(\w+)", text))
    types_in[path] = set(re.findall(r"\b(?:struct|class|enum|actor|extension)\s+(\w+)", text))
targets = {d for d in os.listdir("Tests") if os.path.isdir(os.path.join("Tests", d))}
basenames = {}
for path in test_files:
    basenames.setdefault(os.path.basename(path), []).append(path)


def files_of_type(name):
    return [p for p in test_files if name in types_in[p]]


# ---- The docs ----

PATH = re.compile(r"(?<![\w./-])((?:Tests|Sources|hardware|deploy|bench|config|docs)/[\w./*+-]*[\w*])")
SUITE = re.compile(r"(?<![\w/.])([A-Z]\w*Tests)\b(?!\.swift)")
BARE_FILE = re.compile(r"(?<![\w/.])(\w+Tests\.swift)\b")
IDENT = re.compile(r"^([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?(?:\([\w:]*\))?$")


def scope_of(token):
    """The files a citation after `token` refers to, or None when it is not a test reference."""
    if token.startswith("Tests/") and token.endswith(".swift"):
        return [token] if token in tests_in else None
    if token.endswith("Tests.swift") and "/" not in token:
        return basenames.get(token)
    if re.fullmatch(r"(?:hardware|Tests)/[\w/.-]+\.(?:sh|py)", token):
        return [token] if os.path.isfile(token) else None
    if re.fullmatch(r"\w+\.sh", token) and os.path.isfile(f"hardware/hil/scenarios/{token}"):
        return [f"hardware/hil/scenarios/{token}"]
    if token in targets:
        return [p for p in test_files if p.startswith(f"Tests/{token}/")]
    if re.fullmatch(r"[A-Z]\w*Tests", token):
        return files_of_type(token) or None
    return None


def check_cited(path, text, pos, scope, name):
    """`name` cited after a test reference whose files are `scope`."""
    cited["tests"] += 1
    if scope[0].endswith((".sh", ".py")):
        script = read(scope[0])
        if not re.search(rf"^\s*(?:function\s+|def\s+)?{re.escape(name)}\s*\(", script, re.M):
            fail(path, text, pos, f"`{name}` is not a function of {scope[0]}")
        return scope
    if name[0].isupper():
        inside = [p for p in scope if name in types_in[p]]
        if not inside:
            fail(path, text, pos, f"`{name}` is not a suite in {', '.join(scope)}")
            return scope
        return inside
    if not any(name in funcs_in[p] for p in scope):
        where = ", ".join(scope) if len(scope) < 4 else f"{len(scope)} files of {os.path.dirname(scope[0])}"
        fail(path, text, pos, f"`{name}` is not a function in {where}")
    return scope


def citations_after(path, text, pos, scope):
    """Reads `a`, `b` (remark), and `c`, `Suite`: `d` … after a test reference; stops at anything else."""
    i, n = pos, len(text)
    while i < n:
        if text.startswith("`", i) and i > 0 and text[i - 1] == "`":
            i += 1
            continue
        c = text[i]
        if text.startswith("\n\n", i) or (c == "\n" and re.match(r"\n\s*(?:[-*|#]|\d+\.)\s", text[i:])):
            return
        if c in " \t\n,:—–":
            i += 1
            continue
        word = re.match(r"(and|or|its)\b", text[i:])
        if word:
            i += word.end()
            continue
        if c == "(":
            depth = 0
            while i < n:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
                if depth == 0 or text.startswith("\n\n", i):
                    break
            continue
        if c == "`":
            end = text.find("`", i + 1)
            if end < 0:
                return
            token = text[i + 1:end]
            m = IDENT.match(token)
            if not m or re.search(r"\.(swift|sh|py|md|toml|json)$", token):
                return
            if m.group(2):  # `Suite.function`
                scope = check_cited(path, text, i, scope, m.group(1))
            scope = check_cited(path, text, i, scope, m.group(2) or m.group(1))
            i = end + 1
            continue
        return


code_words = set()
for p in ("Package.swift", "Makefile", ".swift-format"):
    if os.path.isfile(p):
        code_words |= set(re.findall(r"\w+", read(p)))
for top in ("Sources", "Tests", "hardware", "deploy", "bench", "config"):
    for p in files_under(top, (".swift", ".h", ".c", ".py", ".sh", ".toml", ".js", ".html")):
        code_words |= set(re.findall(r"\w+", read(p)))

for path in DOCS:
    text = read(path)
    # A name shaped like a test's (lowerCamel, three words or more) that is nowhere in the code, wherever it is cited.
    for m in re.finditer(r"`([a-z][a-z0-9]*(?:[A-Z0-9][a-z0-9]*){2,}[A-Za-z0-9]*)(?:\([\w:]*\))?`", text):
        if len(re.findall(r"[A-Z][a-z]", m.group(1))) >= 3 and m.group(1) not in code_words:
            fail(path, text, m.start(), f"`{m.group(1)}` names nothing in the code (a test renamed or removed?)")
    for m in PATH.finditer(text):
        p = m.group(1).rstrip(".")
        if "*" in p or "<" in p:
            continue
        cited["paths"] += 1
        if not os.path.exists(p):
            fail(path, text, m.start(), f"{p} does not exist")
    for m in BARE_FILE.finditer(text):
        if m.group(1) not in basenames:
            fail(path, text, m.start(), f"{m.group(1)}: no such file under Tests/")
    for m in SUITE.finditer(text):
        name = m.group(1)
        if name not in targets and not files_of_type(name):
            fail(path, text, m.start(), f"{name}: no test target, suite or type of that name under Tests/")
    # Test references and the names cited after them.
    for m in re.finditer(r"`([^`\n]+)`|(?<![\w/.`])([A-Z]\w*Tests)\b(?![.`])", text):
        token = m.group(1) or m.group(2)
        scope = scope_of(token)
        if scope:
            end = m.end()
            if text.startswith(" on `main`", end):
                fail(path, text, end, "cites a test as it was on another branch")
            citations_after(path, text, end, scope)


# ---- Rule citations, and nothing that points outside the repository ----

OUTSIDE = re.compile(r"DESIGN\.md|\.\./shared|\bshared/reference|\b(?:style|feature|reliability)-research\.md"
                     r"|swift-probe\.md|perf-anchors\.md|hil-recipe\.md|code-review\.md")
HOUSE_CITE = re.compile(r"HOUSE-RULES\.md((?:\s*(?:§\s*\d+|[,–-]|and|or))*)")
LOOSE_HOUSE = re.compile(r"\b[Hh]ouse rules?\s+\d+|\brule\s+\d+\s+of\b")
TEXT = (".swift", ".h", ".c", ".modulemap", ".py", ".sh", ".toml", ".txt", ".md", ".html", ".js", ".css", ".json",
        ".yml")
sources = ["Package.swift", "Makefile"] + [p for top in ("Sources", "Tests", "hardware", "deploy", "bench", "config")
                                           if os.path.isdir(top) for p in files_under(top, TEXT)]
for path in sources + DOCS:
    text = read(path)
    for m in re.finditer(r"\bR(\d+)\b", text):
        if int(m.group(1)) not in rules:
            fail(path, text, m.start(), f"R{m.group(1)} is not a rule of docs/RELIABILITY.md")
    for m in HOUSE_CITE.finditer(text):
        for number in [int(x) for x in re.findall(r"§\s*(\d+)", m.group(1))]:
            if number not in house_rules:
                fail(path, text, m.start(), f"§{number} is not a rule of docs/HOUSE-RULES.md")
    if path != "docs/HOUSE-RULES.md":
        for m in LOOSE_HOUSE.finditer(text):
            fail(path, text, m.start(), f"'{m.group(0)}': cite a house rule as docs/HOUSE-RULES.md §N")
    for m in OUTSIDE.finditer(text):
        fail(path, text, m.start(), f"'{m.group(0)}' is outside this repository")

for e in errors:
    print(e)
checked = f"{len(DOCS)} docs and {len(sources)} source files"
if errors:
    print(f"check-references: {len(errors)} broken reference(s) in {checked}", file=sys.stderr)
    sys.exit(1)
print(f"check-references: every reference in {checked} resolves ({cited['paths']} paths, {cited['tests']} cited tests "
      f"and suites; rules R1–R{max(rules)}, house rules §1–§{max(house_rules)})")
PY
