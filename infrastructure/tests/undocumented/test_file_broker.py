"""The embedded default's broker (infrastructure.undocumented.file_broker, fabulafs://): a message file
appears in the queue folder only whole, so a worker reading the folder never takes half of one (kombu issue 1551)."""

import os
import threading
from queue import Empty

import pytest
from kombu import Connection

from infrastructure.undocumented import file_broker as broker

PAYLOAD_BYTES = 1024 * 1024  # big enough that writing one takes a while


def connect(tmp_path) -> Connection:
    folder = tmp_path / "queue"
    folder.mkdir(exist_ok=True)
    (tmp_path / "control").mkdir(exist_ok=True)
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "processed_folder": str(tmp_path / "processed"),
        "control_folder": str(tmp_path / "control"),
    }
    return Connection("fabulafs://", transport_options=options)


def message(n: int) -> dict:
    return {"body": "x" * PAYLOAD_BYTES, "n": n}


def test_fabulafs_names_the_atomic_transport(tmp_path):
    with connect(tmp_path) as conn:
        assert isinstance(conn.transport, broker.Transport)
        assert isinstance(conn.default_channel, broker.Channel)


def test_a_message_is_in_the_queue_folder_only_once_it_is_whole(tmp_path, monkeypatch):
    """At the moment of the rename the whole message is on disk under a name no reader takes."""
    with connect(tmp_path) as conn:
        channel = conn.default_channel
        seen = {}
        rename = os.replace

        def replace(src, dst):
            seen["size"] = channel._size("q")
            with pytest.raises(Empty):
                channel._get("q")
            with open(src, "rb") as f:
                seen["temporary"] = (os.path.basename(src), len(f.read()))
            rename(src, dst)

        monkeypatch.setattr(broker.os, "replace", replace)
        channel._put("q", message(1))
        name, size = seen["temporary"]
        assert seen["size"] == 0  # the temporary file does not count as a message
        assert name.startswith(".") and name.endswith(".tmp")
        assert size > PAYLOAD_BYTES
        assert channel._size("q") == 1
        assert channel._get("q") == message(1)
        assert os.listdir(tmp_path / "queue") == []


def test_a_reader_racing_many_writers_reads_every_message_whole(tmp_path):
    writers, each = 4, 25
    with connect(tmp_path) as reader_conn:
        reader = reader_conn.default_channel
        errors = []

        def write(w: int) -> None:
            with connect(tmp_path) as conn:
                channel = conn.default_channel
                for i in range(each):
                    channel._put("q", message(w * each + i))

        threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
        for thread in threads:
            thread.start()
        got = []
        while len(got) < writers * each:
            try:
                got.append(reader._get("q")["n"])  # kombu's reader: takes any "<queue>.msg" file it lists
            except Empty:
                if not any(thread.is_alive() for thread in threads) and reader._size("q") == 0:
                    break
            except Exception as error:  # a half-written file: it does not parse
                errors.append(error)
        for thread in threads:
            thread.join()
        assert errors == []
        assert sorted(got) == list(range(writers * each))
        assert os.listdir(tmp_path / "queue") == []
