"""CSS colours come from the design tokens only: the custom properties of app.css's :root.

Every other rule names a colour as ``var(--token)``; a literal colour (``#hex``,
``rgb()``, ``hsl()``, a named colour) outside the token block fails, naming the file,
the line and the literal.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CSS = ROOT / "static" / "css"
TOKENS_FILE = CSS / "app.css"

HEX = r"#[0-9a-fA-F]{3,8}\b"
FUNCTION = r"\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\s*\("
# CSS named colours (keywords such as transparent, currentColor and inherit are not colours
# of their own and stay allowed).
NAMED = (
    "aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque", "black",
    "blanchedalmond", "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse",
    "chocolate", "coral", "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue", "darkcyan",
    "darkgoldenrod", "darkgray", "darkgreen", "darkgrey", "darkkhaki", "darkmagenta",
    "darkolivegreen", "darkorange", "darkorchid", "darkred", "darksalmon", "darkseagreen",
    "darkslateblue", "darkslategray", "darkslategrey", "darkturquoise", "darkviolet", "deeppink",
    "deepskyblue", "dimgray", "dimgrey", "dodgerblue", "firebrick", "floralwhite", "forestgreen",
    "fuchsia", "gainsboro", "ghostwhite", "gold", "goldenrod", "gray", "green", "greenyellow",
    "grey", "honeydew", "hotpink", "indianred", "indigo", "ivory", "khaki", "lavender",
    "lavenderblush", "lawngreen", "lemonchiffon", "lightblue", "lightcoral", "lightcyan",
    "lightgoldenrodyellow", "lightgray", "lightgreen", "lightgrey", "lightpink", "lightsalmon",
    "lightseagreen", "lightskyblue", "lightslategray", "lightslategrey", "lightsteelblue",
    "lightyellow", "lime", "limegreen", "linen", "magenta", "maroon", "mediumaquamarine",
    "mediumblue", "mediumorchid", "mediumpurple", "mediumseagreen", "mediumslateblue",
    "mediumspringgreen", "mediumturquoise", "mediumvioletred", "midnightblue", "mintcream",
    "mistyrose", "moccasin", "navajowhite", "navy", "oldlace", "olive", "olivedrab", "orange",
    "orangered", "orchid", "palegoldenrod", "palegreen", "paleturquoise", "palevioletred",
    "papayawhip", "peachpuff", "peru", "pink", "plum", "powderblue", "purple", "rebeccapurple",
    "red", "rosybrown", "royalblue", "saddlebrown", "salmon", "sandybrown", "seagreen", "seashell",
    "sienna", "silver", "skyblue", "slateblue", "slategray", "slategrey", "snow", "springgreen",
    "steelblue", "tan", "teal", "thistle", "tomato", "turquoise", "violet", "wheat", "white",
    "whitesmoke", "yellow", "yellowgreen",
)
# A named colour counts only as a property's value: after a colon, among the value's words.
NAMED_VALUE = re.compile(r":[^;{}]*?(?<![\w-])(" + "|".join(NAMED) + r")(?![\w-])", re.IGNORECASE)
LITERAL = re.compile(f"{HEX}|{FUNCTION}", re.IGNORECASE)


def _without_comments(text: str) -> str:
    """Blank out comments, keeping the line numbers."""
    return re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.DOTALL)


def _token_block(text: str) -> tuple[int, int]:
    """Return where app.css's first :root block starts and ends."""
    start = text.index(":root {")
    return start, text.index("}", start) + 1


def colour_literals(path: Path) -> list[str]:
    """Return ``file:line: literal`` for each colour written outside the token block."""
    text = _without_comments(path.read_text(encoding="utf-8"))
    if path == TOKENS_FILE:
        start, end = _token_block(text)
        text = text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
    found = []
    for match in LITERAL.finditer(text):
        found.append((text.count("\n", 0, match.start()) + 1, match.group(0)))
    for match in NAMED_VALUE.finditer(text):
        found.append((text.count("\n", 0, match.start(1)) + 1, match.group(1)))
    relative = path.relative_to(ROOT).as_posix()
    return [f"{relative}:{line}: {literal}" for line, literal in sorted(found)]


def test_the_tokens_are_colours_in_apps_root_block() -> None:
    text = _without_comments(TOKENS_FILE.read_text(encoding="utf-8"))
    start, end = _token_block(text)
    tokens = dict(re.findall(r"--([\w-]+):\s*([^;]+);", text[start:end]))
    assert {"felt", "ink", "paper", "good", "bad", "white", "focus"} <= set(tokens)


def test_no_stylesheet_writes_a_colour_outside_the_tokens() -> None:
    sheets = sorted(CSS.glob("*.css"))
    assert TOKENS_FILE in sheets and len(sheets) > 1
    found = [line for sheet in sheets for line in colour_literals(sheet)]
    assert found == [], "colours written outside the tokens of app.css :root:\n" + "\n".join(found)


def test_every_token_a_stylesheet_uses_is_defined() -> None:
    text = _without_comments(TOKENS_FILE.read_text(encoding="utf-8"))
    start, end = _token_block(text)
    defined = set(re.findall(r"--([\w-]+):", text[start:end]))
    used, local = set(), set()
    for sheet in CSS.glob("*.css"):
        sheet_text = _without_comments(sheet.read_text(encoding="utf-8"))
        used |= set(re.findall(r"var\(--([\w-]+)", sheet_text))
        if sheet != TOKENS_FILE:
            # A layout variable a sheet sets itself (the seats' --x, --y): not a colour token.
            local |= set(re.findall(r"(?<![\w-])--([\w-]+)\s*:", sheet_text))
    assert used - defined - local == set()
    assert not local & defined, "a sheet redefines a token of app.css :root"


CHARTS = ROOT / "trainer" / "web" / "supervisor" / "charts.py"


def test_the_server_drawn_charts_write_no_colour_of_their_own() -> None:
    """The SVG charts take their colours from classes (app.css tokens) or currentColor."""
    text = CHARTS.read_text(encoding="utf-8")
    found = [f"{CHARTS.relative_to(ROOT).as_posix()}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
             for m in LITERAL.finditer(text)]
    assert found == [], "colours written in the charts:\n" + "\n".join(found)


def test_the_scan_finds_each_form_of_colour(tmp_path: Path) -> None:
    sheet = tmp_path / "x.css"
    sheet.write_text(".a { color: #abc; }\n.b { background: rgb(1, 2, 3); }\n"
                     ".c { border: 1px solid hsl(0 0% 0%); }\n.d { color: Red; }\n"
                     ".e { color: var(--ink); border-color: transparent; }\n"
                     "/* red and #fff in a comment */\n.f-white-g { color: currentColor; }\n",
                     encoding="utf-8")
    text = _without_comments(sheet.read_text(encoding="utf-8"))
    literals = [m.group(0) for m in LITERAL.finditer(text)]
    named = [m.group(1) for m in NAMED_VALUE.finditer(text)]
    assert literals == ["#abc", "rgb(", "hsl("] and named == ["Red"]
