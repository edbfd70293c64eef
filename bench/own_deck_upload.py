"""Own decks: the time to upload and re-encode phone photos (issue 33's closing note).

``--photos`` (40) JPEGs of a phone's 12 megapixels (4032 x 3024, about 3.6 MB each: gradients and noise,
which compress as poorly as a photo; half turned by an EXIF orientation, every one with a GPS position)
are sent one after another to ``POST /api/v1/decks/{id}/cards`` with an API token, in-process through
Django's test client: the multipart body read, the picture checked, decoded, turned, cropped, re-encoded
as a 480 x 720 WebP, stored and its row written. The report gives the total, the median and the slowest
photo, and the CPU time per photo: this process's and its children's (each picture is decoded in a
process of its own: ``storyteller/decks/services/picture_decoding.py``).

SQLite file in a temporary folder by default; with a PostgreSQL DATABASE_URL, a database named after it
with ``_bench`` (dropped at the end). From the repository root:

    .venv/bin/python bench/own_deck_upload.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fabula .venv/bin/python bench/own_deck_upload.py --photos 40
"""

import argparse
import io
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_latency import drop_database, prepare_environment  # noqa: E402

WIDTH, HEIGHT = 4032, 3024


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=40, help="photos uploaded (40)")
    parser.add_argument("--distinct", type=int, default=4, help="different photos made, sent in turn (4)")
    return parser.parse_args(argv)


def phone_photo(seed: int) -> bytes:
    from PIL import Image, ImageChops

    gradient = Image.linear_gradient("L").resize((WIDTH, HEIGHT))
    across = gradient.rotate(90 + seed * 7).resize((WIDTH, HEIGHT))
    noise = Image.effect_noise((WIDTH, HEIGHT), 40 + seed)
    image = Image.merge(
        "RGB",
        (
            ImageChops.add(gradient, noise, scale=2.0),
            ImageChops.blend(across, noise, 0.35),
            ImageChops.subtract(across, noise, scale=1.5, offset=60),
        ),
    )
    exif = Image.Exif()
    exif[0x010F], exif[0x0110] = "PhoneMaker", "Phone 15"
    exif[0x0112] = 6 if seed % 2 else 1  # half of them stored sideways, as phones do
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2], gps[3], gps[4] = "N", (60.0, 10.0, 30.0), "E", (24.0, 56.0, 15.0)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=80, exif=exif)
    return out.getvalue()


def player_with_deck():
    """A new player's API token (its secret) and a deck of theirs, on the bench's database (migrated)."""
    from accounts.services import token_create
    from games.tests.factories import UserFactory
    from storyteller.decks.services.own_decks import deck_create

    user = UserFactory()
    _token, secret = token_create(user=user, name="bench")
    return secret, deck_create(user=user, name="Bench")


def cpu_time() -> float:
    """CPU seconds of this process and of its children that ended (the decoding processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main(argv=None) -> int:
    args = parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="fabula-bench-own-decks-"))
    bench_database = prepare_environment(workdir)
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.core.files.uploadedfile import SimpleUploadedFile
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client

        from storyteller.models import Card

        call_command("migrate", verbosity=0)
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        settings.FABULA_API_RATES = {**settings.FABULA_API_RATES, "actions": (10_000, 60)}
        print(f"making {args.distinct} phone photos of {WIDTH} x {HEIGHT}...", flush=True)
        photos = [phone_photo(seed) for seed in range(args.distinct)]
        secret, deck = player_with_deck()
        client = Client()
        headers = {"Authorization": f"Bearer {secret}"}
        walls, cpus = [], []
        sent = 0
        for number in range(args.photos):
            data = photos[number % len(photos)]
            sent += len(data)
            started, cpu = time.perf_counter(), cpu_time()
            response = client.post(
                f"/api/v1/decks/{deck.pk}/cards",
                {"file": SimpleUploadedFile(f"IMG_{number:04d}.jpg", data, "image/jpeg"), "alt": f"Photo {number}"},
                headers=headers,
            )
            walls.append(time.perf_counter() - started)
            cpus.append(cpu_time() - cpu)
            assert response.status_code == 201, response.content
        stored = sum(Card.objects.filter(deck=deck).values_list("size", flat=True))
        total = sum(walls)
        print(
            f"\n{connection.vendor}; {args.photos} photos of {WIDTH} x {HEIGHT}, "
            f"{sent / args.photos / 1e6:.1f} MB each on average ({sent / 1e6:.0f} MB sent), one after another"
        )
        print(f"total {total:.1f} s; per photo: median {statistics.median(walls) * 1000:.0f} ms, ", end="")
        print(f"slowest {max(walls) * 1000:.0f} ms, CPU {statistics.median(cpus) * 1000:.0f} ms (median)")
        print(f"stored: {stored / 1e6:.2f} MB of WebP ({stored / args.photos / 1024:.0f} KB a card)")
        return 0
    finally:
        if bench_database:
            drop_database(bench_database)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
