"""The default "Dreams" deck: its generator and the committed files.

Plain pytest (no database). The generator's SVG composition needs only the
standard library and the committed icon subset; the image checks need Pillow.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GENERATOR = REPO / "tools" / "deck" / "make_deck.py"
MANIFEST = REPO / "storyteller" / "decks" / "builtin" / "dream.json"
CARD_DIR = REPO / "storyteller" / "static" / "cards" / "dream"
SAMPLE = (1, 17, 42, 63, 84)


@pytest.fixture(scope="module")
def make_deck():
    spec = importlib.util.spec_from_file_location("fabula_make_deck", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def icons(make_deck):
    return make_deck.load_icons()


@pytest.fixture(scope="module")
def deck():
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


def test_generator_imports_without_renderer(make_deck):
    # rendering libraries are imported lazily, inside the render functions
    assert "resvg_py" not in vars(make_deck)
    assert "cairosvg" not in vars(make_deck)
    assert len(make_deck.SCENES) == 84


def test_same_seed_same_svg(make_deck, icons):
    first = [make_deck.compose_svg(n, 7, icons) for n in SAMPLE]
    second = [make_deck.compose_svg(n, 7, make_deck.load_icons()) for n in SAMPLE]
    assert first == second


def test_different_seed_different_svg(make_deck, icons):
    for n in SAMPLE:
        assert make_deck.compose_svg(n, 7, icons) != make_deck.compose_svg(n, 8, icons)


def test_svg_written_to_disk_is_reproducible(make_deck, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        make_deck.main(["--seed", "7", "--out", str(out), "--svg-only", "--only", "1,2,3,4,5"])
    for n in range(1, 6):
        assert (a / f"{n:03d}.svg").read_bytes() == (b / f"{n:03d}.svg").read_bytes()


def test_every_card_composes_from_the_committed_subset(make_deck, icons):
    for n in range(1, 85):
        svg = make_deck.compose_svg(n, 7, icons)
        root = ET.fromstring(svg)
        assert root.get("viewBox") == "0 0 480 720"
        assert "<text" not in svg
        ids = re.findall(r'\bid="([^"]+)"', svg)
        duplicated = [i for i, k in Counter(ids).items() if k > 1]
        assert not duplicated, f"card {n}: icon ids not prefixed: {duplicated[:3]}"


def test_manifest_matches_generator(make_deck, deck):
    assert deck == make_deck.manifest()


def test_manifest_shape(deck):
    assert deck["slug"] == "dream"
    assert deck["name"] == "Dreams"
    assert deck["description"].strip()
    cards = deck["cards"]
    assert len(cards) == 84
    files = [c["file"] for c in cards]
    assert files == [f"{i:03d}.webp" for i in range(1, 85)]
    alts = [c["alt"].strip() for c in cards]
    assert all(alts)
    assert len(set(alts)) == 84
    for card in cards:
        assert card["tags"] and all(isinstance(t, str) and t for t in card["tags"])


def test_committed_images():
    image = pytest.importorskip("PIL.Image")
    digests = set()
    for i in range(1, 85):
        path = CARD_DIR / f"{i:03d}.webp"
        assert path.is_file(), path
        data = path.read_bytes()
        digests.add(hashlib.sha256(data).hexdigest())
        with image.open(path) as img:
            assert img.format == "WEBP"
            assert img.size == (480, 720)
            img.load()
    assert len(digests) == 84, "two committed cards are byte-identical"
    assert (CARD_DIR / "LICENSE.txt").is_file()
