"""config.templating: a template's whole numbers render as Django's own localize renders them, only faster."""

from decimal import Decimal

import pytest
from django.conf import settings
from django.template import Context, Template, base
from django.test import override_settings
from django.utils import formats, translation

from config import templating

VALUES = [0, 7, -12, 1234567, True, False, 2.5, 1234.75, Decimal("1234.50"), "1234", None]
TEMPLATE = Template("{% for value in values %}[{{ value }}]{% endfor %}")


def rendered(values) -> str:
    return TEMPLATE.render(Context({"values": values}))


def test_templates_render_with_it():
    assert base.localize is templating.localize


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("grouping", [False, True])
def test_every_value_renders_as_djangos_localize_renders_it(language, grouping):
    with translation.override(language), override_settings(USE_THOUSAND_SEPARATOR=grouping):
        ours = rendered(VALUES)
        base.localize = formats.localize
        try:
            djangos = rendered(VALUES)
        finally:
            templating.install()
    assert ours == djangos
    if grouping and language == "en":
        assert "[1,234,567]" in ours  # the separator still reaches whole numbers when it is asked for
    if not grouping:
        assert "[1234567]" in ours and "[-12]" in ours


def test_a_whole_number_asks_the_locale_nothing(monkeypatch):
    monkeypatch.setattr(formats, "number_format", lambda *args, **kwargs: pytest.fail("number_format was asked"))
    assert rendered([3, 12]) == "[3][12]"
