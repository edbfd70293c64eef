"""Clue media, attacked as an outsider would (issue 29, items 4, 5 and 7): files public by their path, the
stored name given away, a deleted player's recording still served, sounds longer than their headers say
(NaN included), animations, pixel bombs, refused uploads not counted, and uploads holding the game's lock.

The checks share one private Storyteller game of three, made through the API, whose house rules take
drawings and sounds (sign-ups from one address are few an hour): the first player's uploads are looked
for by path and then spent on refused tries, the second's are slow ones while the first chats, the
third's are refused files until, last, the third gives a sung clue and deletes their account. The files
are made here (Pillow, mutagen and bytes by hand), as anyone could make them.
"""

from __future__ import annotations

import io
import re
import struct
import threading
import time

import httpx

from . import Account, Fell, Site

# --- a table, and files to send -----------------------------------------------------------------


_TABLES: dict[int, tuple[int, list[Account]]] = {}


def _table(site: Site) -> tuple[int, list[Account]]:
    """The started private game of three whose clues may be words, drawings or sounds: its id and players."""
    if id(site) in _TABLES:
        return _TABLES[id(site)]
    players = [site.account() for _ in range(3)]
    created = players[0].api.post(
        "/games",
        json={
            "kind": "storyteller",
            "seats": 3,
            "visibility": "private",
            "clue_modes": ["words", "drawing", "sound"],
        },
    )
    if created.status_code != 201:
        raise RuntimeError(f"game create: {created.status_code} {created.text[:200]}")
    game = created.json()
    for player in players[1:]:
        joined = player.api.post(f"/games/{game['id']}/join", json={"invite_code": game.get("invite_code")})
        if joined.status_code != 200:
            raise RuntimeError(f"join: {joined.status_code} {joined.text[:200]}")
    _TABLES[id(site)] = game["id"], players
    return _TABLES[id(site)]


def _upload(account: Account, game_id: int, data: bytes, name: str = "clue.bin") -> httpx.Response:
    return account.api.post(
        f"/games/{game_id}/clue-media", files={"file": (name, data, "application/octet-stream")}, timeout=60
    )


def _png(width: int = 64, height: int = 48, mode: str = "RGB") -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new(mode, (width, height)).save(out, "PNG")
    return out.getvalue()


def _animation(fmt: str) -> bytes:
    from PIL import Image

    frames = [Image.new("RGB", (64, 64), colour) for colour in ("red", "blue", "green")]
    out = io.BytesIO()
    frames[0].save(out, fmt, save_all=True, append_images=frames[1:], duration=100)
    return out.getvalue()


def _element(element_id: bytes, payload: bytes) -> bytes:
    return element_id + b"\x01" + len(payload).to_bytes(7, "big") + payload


def _webm(seconds: float, *, duration: float | None = None, stamped: bool = True, void: int = 0) -> bytes:
    """A WebM of ``seconds`` of 20 ms Opus packets (each only its TOC byte); its header's Duration says
    ``duration`` (NaN if you like); ``stamped=False``: every block says it is at 0; ``void``: that many
    empty Void elements first (cheap to send, slow to walk)."""
    info = _element(b"\x2a\xd7\xb1", (1_000_000).to_bytes(3, "big"))
    if duration is not None:
        info += _element(b"\x44\x89", struct.pack(">d", duration))
    track = _element(b"\xae", _element(b"\x83", b"\x02") + _element(b"\x86", b"A_OPUS"))
    packets = round(seconds * 50)
    clusters = b""
    for second in range((packets + 49) // 50):
        blocks = b"".join(
            _element(b"\xa3", b"\x81" + ((20 * n) if stamped else 0).to_bytes(2, "big") + b"\x80\xfc")
            for n in range(min(50, packets - 50 * second))
        )
        at = (1000 * second if stamped else 0).to_bytes(4, "big")
        clusters += _element(b"\x1f\x43\xb6\x75", _element(b"\xe7", at) + blocks)
    body = b"\xec\x80" * void + _element(b"\x15\x49\xa9\x66", info) + _element(b"\x16\x54\xae\x6b", track) + clusters
    return _element(b"\x1a\x45\xdf\xa3", _element(b"\x42\x82", b"webm")) + _element(b"\x18\x53\x80\x67", body)


def _ogg(seconds: float, *, said: float) -> bytes:
    """An Ogg Opus stream of ``seconds`` of 20 ms packets whose last granule position says ``said``."""
    from mutagen.ogg import OggPage

    head = b"OpusHead" + bytes([1, 1]) + struct.pack("<HIhB", 312, 48000, 0, 0)
    tags = b"OpusTags" + struct.pack("<I", 4) + b"evil" + struct.pack("<I", 0)
    audio = [b"\xfc"] * round(seconds * 50)
    plan = [[head], [tags]] + [audio[n : n + 200] for n in range(0, len(audio), 200)]
    pages = []
    for sequence, packets in enumerate(plan):
        page = OggPage()
        page.serial, page.sequence, page.packets = 7, sequence, packets
        page.first, page.last = sequence == 0, sequence == len(plan) - 1
        page.position = 312 + int(said * 48000) if page.last else 0
        pages.append(page.write())
    return b"".join(pages)


def _refused(site: Site, data: bytes, what: str) -> str:
    game_id, players = _table(site)
    answer = _upload(players[2], game_id, data)
    code = answer.json().get("error", {}).get("code") if answer.status_code < 500 else None
    if answer.status_code != 400 or code != "bad_media":
        raise Fell(f"{what}: {answer.status_code} {answer.text[:120]}")
    return f"{what}: 400 bad_media"


def _stored_names(site: Site) -> set[str]:
    """The clue media files on the site's disk, when this script started the site (else none known)."""
    if site.var_dir is None:
        return set()
    folder = site.var_dir / "media" / "clue-media"
    return {path.name for path in folder.iterdir()} if folder.is_dir() else set()


def _clue(account: Account, game_id: int, media_id: int) -> httpx.Response:
    hand = account.api.get(f"/games/{game_id}").json()["hand"]
    return account.api.post(
        f"/games/{game_id}/actions", json={"type": "clue", "card": hand[0]["id"], "text": "", "media": media_id}
    )


# --- the checks ----------------------------------------------------------------------------------


def check_clue_media_not_public_by_path(site: Site) -> str:
    game_id, players = _table(site)
    before = _stored_names(site)
    answer = _upload(players[0], game_id, _png())
    if answer.status_code != 201:
        raise RuntimeError(f"upload: {answer.status_code} {answer.text[:200]}")
    names = sorted(_stored_names(site) - before) or ["0123456789abcdef0123456789abcdef.png"]
    with site.client() as anyone:
        for name in names:
            for path in (f"/media/clue-media/{name}", f"/media/cards/../clue-media/{name}"):
                got = anyone.get(path)
                if got.status_code != 404:
                    raise Fell(f"{path}: {got.status_code}, {len(got.content)} bytes")
    known = "its stored name" if site.var_dir is not None else "a guessed name"
    return f"/media/clue-media/<{known}>: 404 without log-in"


def check_clue_media_name_not_leaked(site: Site) -> str:
    game_id, players = _table(site)
    before = _stored_names(site)
    answer = _upload(players[0], game_id, _png())
    if answer.status_code != 201:
        raise RuntimeError(f"upload: {answer.status_code} {answer.text[:200]}")
    door = f"/games/{game_id}/clue-media/{answer.json()['id']}/"
    with site.client(headers={"Authorization": f"Bearer {players[0].token}"}) as owner:
        got = owner.get(door)
    if got.status_code != 200:
        raise RuntimeError(f"the uploader's own file: {got.status_code}")
    headers = str(got.headers)
    stems = [name.split(".")[0] for name in _stored_names(site) - before]
    if any(stem in headers for stem in stems) or re.search(r"[0-9a-f]{32}", headers):
        raise Fell(f"the stored name is in the answer's headers: {got.headers.get('content-disposition')}")
    if not got.headers.get("cache-control", "").startswith("private"):
        raise Fell(f"Cache-Control: {got.headers.get('cache-control')!r}")
    with site.client(headers={"Authorization": f"Bearer {players[1].token}"}) as other:
        if (seen := other.get(door).status_code) != 404:
            raise Fell(f"another player saw an upload not given as a clue: {seen}")
    return f"{got.headers.get('content-disposition')}, {got.headers.get('cache-control')}; others 404"


def check_long_sound_with_a_short_header(site: Site) -> str:
    seen = [
        _refused(site, _webm(30, duration=5.0), "WebM, Duration 5 s, 30 s of packets"),
        _refused(site, _webm(30, stamped=False), "WebM, every block at 0, 30 s of packets"),
        _refused(site, _ogg(30, said=5), "Ogg, last granule 5 s, 30 s of packets"),
    ]
    return "; ".join(seen)


def check_nan_duration_sound(site: Site) -> str:
    seen = [
        _refused(site, _webm(30, duration=float("nan")), "WebM, Duration NaN, 30 s"),
        _refused(site, _webm(30, duration=float("-inf")), "WebM, Duration -inf, 30 s"),
    ]
    return "; ".join(seen)


def check_animations_refused(site: Site) -> str:
    return "; ".join(_refused(site, _animation(fmt), f"animated {fmt}") for fmt in ("PNG", "WEBP", "GIF"))


def check_pixel_bomb_refused(site: Site) -> str:
    bomb = _png(4096, 4096, "I;16")
    return _refused(site, bomb, f"4096x4096 16-bit PNG of {len(bomb) // 1024} KB")


def check_refused_uploads_count(site: Site) -> str:
    """The first player (two files taken so far) sends files that are refused until the cap answers: a
    good file then is refused too. Were refused files not counted, it would be taken."""
    game_id, players = _table(site)
    refused = 0
    while refused < 41:
        answer = _upload(players[0], game_id, b"not a picture, try %d" % refused)
        if answer.status_code == 409:
            break
        if answer.status_code != 400:
            raise RuntimeError(f"refused try {refused + 1}: {answer.status_code} {answer.text[:120]}")
        refused += 1
    last = _upload(players[0], game_id, _png())
    if last.status_code != 409 or last.json().get("error", {}).get("code") != "too_many_media":
        raise Fell(f"after {refused} refused uploads a good one was {last.status_code} {last.text[:120]}")
    return f"{refused} refused tries, then 409 too_many_media for a good file"


def check_upload_holds_no_lock(site: Site) -> str:
    """Three streams of uploads slow to check (a WebM of 400,000 empty elements) by the second player while
    the first chats: every chat post answers, and soon."""
    game_id, players = _table(site)
    slow = _webm(3, void=400_000)
    uploads: list[int] = []

    def stream():
        for _ in range(6):
            try:
                uploads.append(_upload(players[1], game_id, slow, "slow.webm").status_code)
            except httpx.HTTPError:
                uploads.append(0)

    threads = [threading.Thread(target=stream) for _ in range(3)]
    for thread in threads:
        thread.start()
    waits = []
    try:
        while not uploads:  # the first upload has been checked: the streams are under way
            time.sleep(0.05)
        while any(thread.is_alive() for thread in threads) and len(waits) < 15:
            started = time.monotonic()
            said = players[0].api.post(f"/games/{game_id}/chat", json={"text": f"still here {len(waits)}"}, timeout=30)
            waits.append(time.monotonic() - started)
            if said.status_code != 201:
                raise Fell(f"a chat post during the uploads: {said.status_code} {said.text[:120]}")
    finally:
        for thread in threads:
            thread.join(120)
    if not waits:
        raise RuntimeError("the uploads were over before a chat post")
    if max(waits) > 2.0:
        raise Fell(f"a chat post waited {max(waits):.1f} s behind the uploads")
    taken = sum(1 for status in uploads if status == 201)
    return f"{len(waits)} chat posts during {len(uploads)} slow uploads ({taken} taken): slowest {max(waits):.2f} s"


def check_deleted_players_media_gone(site: Site) -> str:
    game_id, players = _table(site)
    before = _stored_names(site)
    answer = _upload(players[2], game_id, _webm(3), "clue.webm")
    if answer.status_code != 201:
        raise RuntimeError(f"upload: {answer.status_code} {answer.text[:200]}")
    media_id = answer.json()["id"]
    if (given := _clue(players[2], game_id, media_id)).status_code != 200:
        raise RuntimeError(f"clue: {given.status_code} {given.text[:200]}")
    stored = _stored_names(site) - before
    door = f"/games/{game_id}/clue-media/{media_id}/"
    with site.client(headers={"Authorization": f"Bearer {players[0].token}"}) as other:
        if (seen := other.get(door).status_code) != 200:
            raise RuntimeError(f"a player of the game does not hear the clue: {seen}")
        browser = site.browser(players[2])
        try:
            page = browser.get("/accounts/delete/")
            token = browser.cookies.get("csrftoken", "")
            deleted = browser.post(
                "/accounts/delete/", data={"password": players[2].password, "csrfmiddlewaretoken": token}
            )
        finally:
            browser.close()
        if deleted.status_code not in (302, 303):
            raise RuntimeError(f"account deletion: {deleted.status_code} (page {page.status_code})")
        give_up_at = time.monotonic() + 10
        while (seen := other.get(door).status_code) != 404 and time.monotonic() < give_up_at:
            time.sleep(0.2)
        if seen != 404:
            raise Fell(f"a deleted player's recording is still served to the table: {seen}")
        left = stored & _stored_names(site)
        if left:
            raise Fell(f"a deleted player's file stays on disk: {sorted(left)}")
        with site.client() as anyone:
            for name in stored:
                if (by_path := anyone.get(f"/media/clue-media/{name}").status_code) != 404:
                    raise Fell(f"a deleted player's file by its path: {by_path}")
    return "the table's view of it 404" + (", the file gone from disk" if stored else "")


CHECKS = [
    check_clue_media_not_public_by_path,
    check_clue_media_name_not_leaked,
    check_long_sound_with_a_short_header,
    check_nan_duration_sound,
    check_animations_refused,
    check_pixel_bomb_refused,
    check_upload_holds_no_lock,
    check_refused_uploads_count,
    check_deleted_players_media_gone,  # last: the third player leaves the table
]
