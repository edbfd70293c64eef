"""The README and docs/ hold together: every link lands, every docs page the code names exists,
and no commit id stands in them (git keeps the history, the pages say what is true now)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# Where the code may name a docs page: source, templates, scripts, word lists, other READMEs.
CODE_SUFFIXES = {".py", ".html", ".sh", ".txt", ".md", ".js", ".css", ".toml", ".yml", ".yaml", ".cfg"}
SKIPPED_FOLDERS = {".git", ".venv", "node_modules", "var", "__pycache__", "staticfiles", "locale"}

# [text](target): a Markdown link; the target up to a space, a closing bracket or a title.
LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
DOCS_PATH = re.compile(r"(?<![\w/.-])docs/[\w./-]*?\.md\b")
# 7 to 40 hexadecimal digits, at least one a letter and one a digit: a (short) commit id, not a
# number or an English word such as "defaced".
COMMIT_ID = re.compile(r"(?<![\w-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w-])")


def _code_files():
    for path in ROOT.rglob("*"):
        relative = path.relative_to(ROOT)
        if any(part in SKIPPED_FOLDERS for part in relative.parts) or not path.is_file():
            continue
        if relative.parts[0] == "docs" or relative == Path("README.md") or path == Path(__file__):
            continue
        if path.suffix in CODE_SUFFIXES or relative.parts[0] in {"bin", ".ci"}:
            yield path


def _links(page):
    """The relative targets of a page's links, each as (file, #anchor or "")."""
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        yield path, anchor


def _anchors(page):
    """The anchors of a Markdown page's headings, as GitHub makes them."""
    anchors = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if heading := re.match(r"#{1,6} (.+)", line):
            text = heading.group(1).strip().lower().replace("`", "")
            anchors.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return anchors


def test_the_pages_are_found():
    names = {page.relative_to(ROOT).as_posix() for page in PAGES}
    assert {"README.md", "docs/README.md", "docs/playing/games.md", "docs/operating/operations.md"} <= names
    assert {"docs/developing/testing.md"} <= names
    # docs/ is grouped: no page but the index lies loose in it.
    assert [p.name for p in (ROOT / "docs").glob("*.md")] == ["README.md"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_lands_on_a_file(page):
    missing = [path for path, _ in _links(page) if path and not (page.parent / path).exists()]
    assert missing == [], f"{page.relative_to(ROOT)} links to files that do not exist"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_to_a_heading_finds_it(page):
    wrong = []
    for path, anchor in _links(page):
        target = (page.parent / path) if path else page
        if anchor and target.suffix == ".md" and target.is_file() and anchor not in _anchors(target):
            wrong.append(f"{path}#{anchor}")
    assert wrong == [], f"{page.relative_to(ROOT)} links to headings that do not exist"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_commit_id_in_the_pages(page):
    text = page.read_text(encoding="utf-8")
    found = [m.group(0) for m in COMMIT_ID.finditer(text)]
    assert found == [], f"{page.relative_to(ROOT)} names commits: git keeps the history"


def test_every_docs_page_the_code_names_exists():
    named = {}
    for path in _code_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for match in DOCS_PATH.finditer(text):
            named.setdefault(match.group(0), []).append(path.relative_to(ROOT).as_posix())
    missing = {name: files for name, files in named.items() if not (ROOT / name).is_file()}
    assert missing == {}
    # The code does name pages (so the scan reads what it should).
    assert named


def test_the_checks_catch_what_they_look_for():
    assert LINK.findall("see [ops](operating/operations.md#faults) and [x](https://e.org)") == [
        "operating/operations.md#faults",
        "https://e.org",
    ]
    assert "across-weeks-deadlines-away-days-banks-nudges-reliability" in _anchors(ROOT / "docs/playing/games.md")
    assert "the-map-of-the-apps" in _anchors(ROOT / "README.md")
    assert "the-map" not in _anchors(ROOT / "README.md")
    assert COMMIT_ID.findall("the code before (b9e94db) and 2,805 passed, 1000000 rows, defaced") == ["b9e94db"]
    assert DOCS_PATH.findall('(docs/playing/decks.md, "Card reports"); ../docs/x.md') == ["docs/playing/decks.md"]
