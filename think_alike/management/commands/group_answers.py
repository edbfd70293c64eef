"""``manage.py group_answers``: Think Alike's grouping of answers, line by line.

Reads JSON lines from standard input, each ``{"lang": "da", "answers": ["Hunde",
"hund", "kat"]}``, and prints for each one line: a JSON list of groups, each group a
list of the given answers as they were written, largest group first, exactly as the
game proposes them to the turn holder (blank answers, which match nothing, are left
out). Blank input lines are skipped.

A bad line (not JSON, no known ``lang``, ``answers`` not a list of strings) prints an
error naming its line number on standard error and nothing on standard output; the
other lines are still grouped, and the command then exits with status 1.

    echo '{"lang": "fr", "answers": ["côte", "côté", "cote", "Côtes"]}' |
        python manage.py group_answers
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from think_alike.engine.matching import SUPPORTED, group_answers


class Command(BaseCommand):
    @property
    def help(self) -> str:  # type: ignore[override]  # translated when asked (argparse takes no lazy text)
        return _(
            'Group answers as Think Alike does: reads JSON lines {"lang": ..., "answers": [...]} on standard '
            "input and prints, for each, one JSON list of groups of the given answers. A bad line is "
            "reported on standard error and skipped; the command then exits with status 1."
        )

    # call_command(..., stdin=...) reads from that instead of the process's input.
    stealth_options = ("stdin",)

    def handle(self, *args, **options):
        source = options.get("stdin") or sys.stdin
        bad = 0
        for number, line in enumerate(source, start=1):
            if not line.strip():
                continue
            try:
                lang, answers = self._parse(line)
            except ValueError as error:
                bad += 1
                self.stderr.write(_("line %(number)d: %(error)s") % {"number": number, "error": error})
                continue
            groups = group_answers([(seat, 0, text) for seat, text in enumerate(answers)], lang)
            self.stdout.write(
                json.dumps([[answers[seat] for seat, _index in group.items] for group in groups], ensure_ascii=False)
            )
        if bad:
            raise CommandError(
                ngettext(
                    "%(count)d bad line: nothing was printed for it (see above).",
                    "%(count)d bad lines: nothing was printed for them (see above).",
                    bad,
                )
                % {"count": bad}
            )

    def _parse(self, line: str) -> tuple[str, list[str]]:
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(_("not JSON (%(error)s)") % {"error": error.msg}) from None
        if not isinstance(data, dict):
            raise ValueError(_('a line is a JSON object: {"lang": ..., "answers": [...]}'))
        lang, answers = data.get("lang"), data.get("answers")
        if lang not in SUPPORTED:
            raise ValueError(
                _("the language %(lang)s is not one of %(langs)s")
                % {"lang": json.dumps(lang, ensure_ascii=False), "langs": ", ".join(SUPPORTED)}
            )
        if not isinstance(answers, list) or not all(isinstance(answer, str) for answer in answers):
            raise ValueError(_('"answers" is a list of strings'))
        return lang, answers
