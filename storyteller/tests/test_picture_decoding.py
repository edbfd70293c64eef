"""Pictures decoded within a memory budget (issue 37, item 3): refused from the header when the decoding would
take more than the budget, decoded in a process of its own otherwise, a bounded number at once; a phone's
48-megapixel photo (JPEG and HEIC) still becomes a card, turned, cut and stripped as before."""

import io
import json
import subprocess
import sys
import threading

import pytest
from PIL import Image

from games.tests.live.server import ROOT
from storyteller.decks.services import picture_decoding, picture_worker
from storyteller.decks.services.picture_decoding import DecodingRoom, NoRoom
from storyteller.models import Card

# The fixtures of the own decks' tests: the media in a temporary folder, rate counts of the test's own, a player.
from .test_own_decks import alice, media_root, new_deck, own_rate_counts, path_of, served  # noqa: F401

pytestmark = pytest.mark.django_db

PHONE_48MP = (8064, 6048)  # a 48-megapixel phone camera's photo, stored landscape


@pytest.fixture
def no_decoding(monkeypatch):
    """Fails the test if any picture is decoded (a decoding process started)."""

    def refused(*args, **kwargs):
        raise AssertionError("a picture was decoded")

    monkeypatch.setattr(picture_decoding.subprocess, "run", refused)


def square_webp(side: int = 7000) -> bytes:
    """A lossless WebP of one colour: 2 KB for 7000 x 7000, some 800 MB to decode."""
    out = io.BytesIO()
    Image.new("RGB", (side, side), (40, 90, 200)).save(out, format="WEBP", lossless=True)
    return out.getvalue()


def png_of_zeros(size=(7000, 7000), mode="RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size).save(out, format="PNG")
    return out.getvalue()


def phone_photo(fmt: str, size=PHONE_48MP, **save) -> bytes:
    """Stored landscape, the upper quarter white, EXIF saying "turn it 90° clockwise" and where it was taken."""
    image = Image.new("RGB", size, (200, 120, 40))
    image.paste((255, 255, 255), (0, 0, size[0], size[1] // 4))
    exif = Image.Exif()
    exif[0x010F], exif[0x0110], exif[0x0112] = "PhoneMaker", "Phone 48", 6
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2], gps[3], gps[4] = "N", (60.0, 10.0, 30.0), "E", (24.0, 56.0, 15.0)
    out = io.BytesIO()
    image.save(out, format=fmt, exif=exif, **save)
    return out.getvalue()


def card_of(player, response) -> Image.Image:
    assert response.status_code == 201, response.content
    data = b"".join(served(player.page, path_of(response.json()["image"])).streaming_content)
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "WEBP" and picture.size == (480, 720)
    assert not picture.info.get("exif") and not picture.info.get("xmp") and not picture.info.get("icc_profile")
    return picture.convert("RGB")


def assert_turned_clockwise(card: Image.Image) -> None:
    # The stored top (white) is on the right once turned: a portrait cut from the middle, not a landscape squeezed.
    right, left = card.getpixel((470, 360)), card.getpixel((10, 360))
    assert min(right) > 230 and left[2] < 100, (left, right)


# --- refused from the header ----------------------------------------------------------------


def test_a_lossless_webp_of_7000_square_is_refused_from_its_header_before_any_decoding(alice, no_decoding):
    data = square_webp()
    assert len(data) < 10_000
    deck = new_deck(alice)
    response = alice.upload(deck["id"], data, name="small.webp", content_type="image/webp")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "bad_media"
    assert "more than the 512 MB allowed" in error["message"] and "as a JPEG" in error["message"], error
    assert not Card.objects.exists()


def test_the_budget_is_a_setting_a_png_of_zeros_within_it_is_made_over_it_refused(alice, settings):
    data = png_of_zeros()
    deck = new_deck(alice)
    settings.FABULA_PICTURE_DECODE_BUDGET_MB = 200
    refused = alice.upload(deck["id"], data, name="zeros.png", content_type="image/png")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_media"
    assert "the 200 MB allowed" in refused.json()["error"]["message"]
    assert not Card.objects.exists()
    settings.FABULA_PICTURE_DECODE_BUDGET_MB = 512
    card = card_of(alice, alice.upload(deck["id"], data, name="zeros.png", content_type="image/png"))
    assert card.getpixel((240, 360)) == (0, 0, 0)


def test_the_estimate_covers_what_the_decoding_process_takes_at_its_peak():
    """The worker program decoding the 7000 x 7000 PNG of zeros and a 12-megapixel JPEG: its peak resident memory
    (ru_maxrss of the process) stays under the estimate the web process refused or admitted it by."""
    for data in (png_of_zeros(), phone_photo("JPEG", size=(4032, 3024))):
        with Image.open(io.BytesIO(data)) as probe:
            need = picture_worker.decode_memory(probe, data_bytes=len(data), draft_side=1440)
        said, peak = _worker_run(data, address_limit=need + picture_worker.ADDRESS_MARGIN_BYTES)
        assert "descriptions" in said and 0 < peak < need, (said, peak, need)


def test_a_picture_that_takes_more_than_its_cap_fails_in_its_own_process():
    """The backstop: the worker caps its own address space; a picture whose header lies about what it takes, here
    one let through with a cap of 300 MB, fails there (never over the cap), and the web process says "damaged"."""
    said, peak = _worker_run(square_webp(), address_limit=300 * 1024 * 1024)
    assert said.get("error") in ("memory", "damaged") and peak < 300 * 1024 * 1024, (said, peak)


def _worker_run(data: bytes, *, address_limit: int) -> tuple[dict, int]:
    """What the worker program said of ``data`` (its first line) and its peak resident bytes."""
    code = (
        "import json, resource, subprocess, sys;"
        "done = subprocess.run(sys.argv[1:], stdin=sys.stdin, capture_output=True);"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024;"
        "print(json.dumps([done.stdout.partition(b'\\n')[0].decode(), peak]))"
    )
    command = picture_decoding.worker_command(
        card_size=(480, 720),
        draft_side=1440,
        formats=("PNG", "JPEG", "WEBP"),
        quality=85,
        describe=False,
        address_limit=address_limit,
    )
    done = subprocess.run([sys.executable, "-c", code, *command], input=data, capture_output=True, check=True)
    said, peak = json.loads(done.stdout)
    return json.loads(said), peak


# --- a phone's 48 megapixels still upload --------------------------------------------------------


def test_a_48_megapixel_jpeg_from_a_phone_becomes_a_card(alice):
    data = phone_photo("JPEG", quality=85)
    assert len(data) < 10 * 1024 * 1024
    deck = new_deck(alice)
    card = card_of(alice, alice.upload(deck["id"], data, name="IMG_0001.JPG"))
    assert_turned_clockwise(card)


def test_a_48_megapixel_heic_from_a_phone_becomes_a_card(alice):
    """Listed slow in conftest.py: encoding 48 megapixels as HEIC takes x265 some 10 s on this machine."""
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    data = phone_photo("HEIF", quality=30, enc_params={"preset": "ultrafast"})
    deck = new_deck(alice)
    card = card_of(alice, alice.upload(deck["id"], data, name="IMG_0001.HEIC", content_type="image/heic"))
    # HEIF turns a picture by its own box (irot), which libheif applies; pillow-heif sets the EXIF's aside, and
    # Pillow's writer keeps it there: the card is the middle of the picture as stored, the white band on top.
    assert min(card.getpixel((240, 10))) > 230 and card.getpixel((240, 700))[2] < 100


@pytest.mark.parametrize("mode", ["RGBA", "P", "LA"])
def test_a_large_picture_cut_and_reduced_in_strips_is_turned_and_flattened_as_before(alice, mode):
    """A PNG of 6000 x 4000 is reduced (three times) before it is turned: in strips, for the modes that are
    converted first; transparency still ends white."""
    image = Image.new("RGBA", (6000, 4000), (120, 60, 20, 255))  # dark enough in grey too
    image.paste((255, 255, 255, 255), (0, 0, 6000, 1000))
    image.paste((0, 0, 0, 0), (2900, 2500, 3100, 3500))  # a transparent stripe in the middle of the lower half
    if mode == "P":
        image = image.quantize()  # a palette with a transparent entry (tRNS)
    elif mode != "RGBA":
        image = image.convert(mode)
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    image.save(out, format="PNG", exif=exif)
    deck = new_deck(alice)
    card = card_of(alice, alice.upload(deck["id"], out.getvalue(), name="big.png", content_type="image/png"))
    assert_turned_clockwise(card)
    # Turned, the stripe lies across the middle of the card's left half: white, not black.
    assert min(card.getpixel((120, 360))) > 230, card.getpixel((120, 360))


# --- a bounded number at once -----------------------------------------------------------------


def test_with_no_room_to_decode_an_upload_answers_503_busy_and_stores_nothing(alice, settings):
    settings.FABULA_PICTURE_DECODE_WAIT_SECONDS = 0.2
    deck = new_deck(alice)
    data = phone_photo("JPEG", size=(1200, 900))
    budget = picture_decoding.decode_budget()
    with picture_decoding.room.hold(budget, budget=budget, slots=2, wait=0):  # others' decodings take it all
        response = alice.upload(deck["id"], data)
        page = alice.page.post(
            f"/decks/{deck['id']}/cards/",
            {"file": io.BytesIO(data), "alt": "A picture"},
            headers={"Accept": "application/json"},
        )
    for answer in (response, page):
        assert answer.status_code == 503, answer.content
        assert answer.json()["error"]["code"] == "busy" and answer["Retry-After"] == "2"
        assert "try again in a moment" in answer.json()["error"]["message"]
    assert not Card.objects.exists()
    card_of(alice, alice.upload(deck["id"], data))  # the room free again: it goes through


def test_the_room_lets_at_most_its_slots_run_and_keeps_within_its_budget():
    room = DecodingRoom()
    started, seen, release = threading.Semaphore(0), [], threading.Event()

    def decode(need):
        with room.hold(need, budget=100, slots=2, wait=30):
            seen.append((room.running, room.taken))
            started.release()
            release.wait(30)

    threads = [threading.Thread(target=decode, args=(need,)) for need in (60, 30, 30, 10)]
    for thread in threads:
        thread.start()
    assert started.acquire(timeout=30) and started.acquire(timeout=30)
    # Two run (60 + 30, or 30 + 30...); the others wait: a third would be over the slots.
    assert room.running == 2 and room.taken <= 100
    with pytest.raises(NoRoom), room.hold(1, budget=100, slots=2, wait=0.05):
        pass
    release.set()
    for thread in threads:
        thread.join(30)
    assert len(seen) == 4 and all(running <= 2 and taken <= 100 for running, taken in seen), seen
    assert (room.running, room.taken) == (0, 0)


def test_a_decoding_that_runs_too_long_is_stopped_and_refused(alice, settings):
    settings.FABULA_PICTURE_DECODE_SECONDS = 0.001  # not even time to start
    deck = new_deck(alice)
    response = alice.upload(deck["id"], phone_photo("JPEG", size=(1200, 900)))
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_media", response.content
    assert not Card.objects.exists() and (picture_decoding.room.running, picture_decoding.room.taken) == (0, 0)


# --- the web process's memory, against a real server -------------------------------------------------


def test_four_7000_square_webps_at_once_leave_the_web_process_within_its_memory_aims(tmp_path):
    """bench/picture_memory.py against uvicorn as bin/run starts it (listed slow in conftest.py): four at once
    refused with the default budget, and decoded with a budget that lets them through (one at a time, each in a
    process of its own); either way the web process adds at most 400 MB at its peak and 150 MB after."""
    figures = tmp_path / "figures.json"
    command = [
        sys.executable,
        "bench/picture_memory.py",
        "--cases",
        "webp,webp-budget",
        "--budget-mb",
        "1024",
        "--settle",
        "1",
        "--json",
        str(figures),
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert figures.exists(), done.stdout + done.stderr
    refused, decoded = json.loads(figures.read_text())["cases"]
    assert refused["answers"] == ["400 bad_media"] * 4 and refused["children"] == 0, refused
    assert decoded["answers"] == ["201"] * 4 and decoded["children"] >= 4, decoded
    for case in (refused, decoded):
        assert case["added_at_peak_mb"] <= 400 and case["added_after_mb"] <= 150, case
    assert done.returncode == 0, done.stdout + done.stderr
