import pytest


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Each test stores pictures in a folder of its own, so it can see exactly what it left."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def stored_files(media_root):
    def files():
        return sorted(str(p.relative_to(media_root)) for p in media_root.rglob("*") if p.is_file())

    return files
