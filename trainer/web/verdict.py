"""The answer's verdict drawn in Python, for the feedback partial (issue 15: an answer in 2 ms).

``verdict_html`` draws exactly what the ``verdict`` macro of ``drills/_verdict.html``
draws for an answer's ``Feedback`` (or None), the same whitespace and escaping, with
no macro calls: the macro made four (verdict, headline, why, parts list) and a
template call per part. ``tests/web/test_feedback_render.py`` compares the two on
every drill kind's feedback, right, wrong, timed out, with parts and with text that
needs escaping. The macro stays for the other pages (the result page, the replay,
the supervisor's mistakes), which also draw stored feedback given as a dict.
"""
from __future__ import annotations

from typing import Any

from flask import has_request_context, request, url_for
from markupsafe import Markup, escape

from trainer.web import engine_words, languages, names, way_words
from trainer.web.i18n import translations


def _t(text: str, **values: Any) -> Markup:
    """Translate as the templates' ``_`` does (newstyle, autoescaped): values are escaped."""
    found = Markup(translations().ugettext(text))
    return found % values if values else found


def _headline(fb: Any, timed_out: bool) -> Markup:
    if fb is None:
        return _t("Wrong")
    if timed_out or fb.timed_out:
        return _t("Time is up")
    if fb.correct:
        return _t("Right")
    if fb.wrong_parts:
        return _t("Wrong: %(parts)s",
                  parts=Markup(", ").join(engine_words.message_words(label) for label in fb.wrong_labels))
    return _t("Wrong")


# The house-way sheet's URL per (script root, house way): ``url_for`` cost about as much
# as the rest of the verdict (issue 15). Its rule takes nothing else from the request.
_SHEET_URLS: dict[tuple[str, str], str] = {}


def _sheet_url(house_way: Any) -> str:
    if not has_request_context():
        return url_for("reference.sheet", preset=house_way)
    key = (request.script_root, str(house_way))
    url = _SHEET_URLS.get(key)
    if url is None:
        url = url_for("reference.sheet", preset=key[1])
        if len(_SHEET_URLS) < 1024:
            _SHEET_URLS[key] = url
    return url


def _why(fb: Any) -> str:
    if not fb.why:
        return ""
    if fb.sheet_rule and fb.house_way:
        # The tooltip names the rule in words; its id stays in data-rule (issue 26).
        named = escape(names.rule_name(fb.rule_id, fb.house_way))
        inner = (f'<a class="sheet-link" href="{escape(_sheet_url(fb.house_way))}'
                 f'#rule-{escape(fb.sheet_rule)}" title="{named}" '
                 f'data-rule="{escape(fb.rule_id)}">'
                 f'{escape(way_words.sheet_sentence_words(fb))}</a>')
    else:
        inner = f'<span data-rule="{escape(fb.rule_id)}">{escape(engine_words.sentence_words(fb.why))}</span>'
        if fb.section:
            section = engine_words.message_words(fb.section)
            inner += f' <span class="muted">({_t("rule book %(section)s", section=section)})</span>'
    return f'\n  <p class="verdict-why">{inner}</p>\n  '


def _parts(fb: Any) -> str:
    if not fb.parts:
        return ""
    out = ['\n  <ul class="verdict-parts plain">\n    ']
    message_words = engine_words.message_words
    for part in fb.parts:
        good = bool(part.correct)
        out.append(
            f'\n    <li class="{"part-good" if good else "part-bad"}" data-part="{escape(part.name)}"'
            f' data-correct="{"yes" if good else "no"}">\n      '
            + (f'<span class="tag tag-good">{_t("Right")}</span>' if good
               else f'<span class="tag tag-bad">{_t("Wrong")}</span>')
            + f"\n      <strong>{escape(message_words(part.shown_name).capitalize())}</strong>:\n      "
            + (str(escape(message_words(part.right))) if good
               else str(_t("you: %(said)s; right: %(right)s", said=message_words(part.said),
                           right=message_words(part.right))))
            + "\n      "
            + (f'<span class="muted">— {escape(message_words(part.why))}</span>' if part.why and not good
               else "")
            + "\n    </li>\n    "
        )
    out.append("\n  </ul>\n  ")
    return "".join(out)


def verdict_html(fb: Any, timed_out: bool = False, elapsed_ms: float | None = None) -> Markup:
    """Draw an answer's verdict (a ``Feedback`` or None) as the ``verdict`` macro does."""
    good = bool(fb and fb.correct and not timed_out)
    html = (f'<div class="verdict {"verdict-good" if good else "verdict-bad"}" '
            f'data-correct="{"yes" if good else "no"}" role="status">\n'
            f'  <strong class="verdict-word">{_headline(fb, timed_out)}</strong>\n  ')
    if elapsed_ms is not None:
        took = _t("%(seconds)s s", seconds=languages.number(elapsed_ms / 1000, 1, grouped=False))
        html += f'<span class="verdict-time">{took}</span>'
    html += "\n</div>\n"
    if fb:
        html += (f'\n<p class="verdict-sentence">{escape(engine_words.message_words(fb.sentence))}</p>\n'
                 f"{_why(fb)}\n{_parts(fb)}\n")
    return Markup(html)
