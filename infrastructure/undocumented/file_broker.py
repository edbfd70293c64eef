"""The embedded default's Celery broker: kombu's file-system transport, each message written whole.

What it replaces: kombu's ``filesystem.Channel._put`` (a subclass of kombu's filesystem Channel,
overriding the virtual transport's ``_put`` hook). What it buys: correctness, not speed. kombu's
``filesystem://`` opens a message's final file (``<ms>_<uuid>.<queue>.msg``) in the queue folder
and then writes into it, so a worker listing that folder can take the file before it is written
and fail to parse it (kombu issue 1551; still so in kombu 5.7.0's ``_put``). Here a message is
written to a hidden temporary name in the same folder, which the reader's filter skips (it takes
only names whose part after the first dot is ``<queue>.msg``), flushed to disk, and then renamed
to its final name: a rename within one file system is atomic, so a reader finds either no file
or the whole message. Only the embedded default uses it (production's broker is Redis); replacing
it would mean another broker with a server, which the embedded default exists not to need.
Checked against: kombu 5.7.0 (pyproject: kombu<5.8; infrastructure/tests/undocumented/test_file_broker.py checks
that a message is invisible until whole and races a reader against many writers).

Registered as ``fabulafs://`` (config.celery); settings point its folders into
``FABULA_VAR_DIR``. Everything else (reading, fan-out, purging) is kombu's.
"""

import contextlib
import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

TEMPORARY_PREFIX = ".put-"  # a name starting with a dot never ends in ".<queue>.msg" after its first dot
TEMPORARY_SUFFIX = ".tmp"


class Channel(filesystem.Channel):
    # kombu's own filesystem Channel names AbstractChannel._put's ``message`` ``payload``: this keeps its signature.
    def _put(self, queue, payload, **kwargs):  # type: ignore[override]
        """Put ``payload`` onto ``queue``: written under a temporary name, then renamed into place."""
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        temporary = os.path.join(self.data_folder_out, f"{TEMPORARY_PREFIX}{name}{TEMPORARY_SUFFIX}")
        try:
            with open(temporary, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
                f.flush()
                os.fsync(f.fileno())
            os.replace(temporary, final)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.remove(temporary)
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
    # Its own state, apart from kombu's filesystem transport in the same process.
    global_state = filesystem.virtual.BrokerState()
    driver_type = "filesystem"
    driver_name = "fabulafs"


def register() -> None:
    """Make ``fabulafs://`` name this transport (idempotent)."""
    TRANSPORT_ALIASES["fabulafs"] = "infrastructure.undocumented.file_broker:Transport"


register()
