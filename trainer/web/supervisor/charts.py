"""Charts drawn on the server as inline SVG: no script, no asset from the internet; they print.

Each function takes plain numbers and returns ``Markup`` holding one ``<svg>``
with ``role="img"`` and an accessible name; the pages show the same figures in
tables beside the charts.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

# Distinct in colour and in print (the dash patterns tell series apart in grey). The
# colours are the stylesheet's: class ``series-<n>`` takes ``--series-<n>`` from app.css,
# so no colour is written here (tests/web/test_css_tokens.py).
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2")
# A sparkline smaller than this is a row of dots nobody reads (issue 16).
SPARK_MIN_WIDTH, SPARK_MIN_HEIGHT = 60, 16


@dataclass(frozen=True)
class Series:
    """A named line: one value (or None for a gap) per x position."""

    name: str
    values: Sequence[float | None]


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _runs(points: Sequence[tuple[float, float] | None]) -> list[list[tuple[float, float]]]:
    """Split points into runs without gaps, so a missing day breaks the line."""
    runs: list[list[tuple[float, float]]] = [[]]
    for point in points:
        if point is None:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(point)
    return [run for run in runs if run]


def sparkline(values: Sequence[float | None], label: str, width: int = 120,
              height: int = 32, low: float = 0.0, high: float = 1.0,
              scale: Callable[[float], str] | None = None) -> Markup:
    """Draw a small trend line of values between ``low`` and ``high``, with its scale.

    The line is drawn in ``currentColor`` (the page's colour for it) over faint guide
    lines at ``low``, halfway and ``high``; the scale's two ends are written at the
    right ("100%" and "0%" by default), so the height of the line reads as a figure.
    """
    if width < SPARK_MIN_WIDTH or height < SPARK_MIN_HEIGHT:
        raise ValueError(f"a sparkline is at least {SPARK_MIN_WIDTH}x{SPARK_MIN_HEIGHT} px")
    scale = scale or (lambda v: f"{v * 100:.0f}%")
    pad, label_w = 4, 30
    plot_right = width - label_w
    n = len(values)
    span = (high - low) or 1.0

    def y_of(v: float) -> float:
        return height - pad - (min(high, max(low, v)) - low) / span * (height - 2 * pad)

    parts = [
        f'<svg class="chart sparkline" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">'
        f'<title>{escape(label)}</title>'
    ]
    for v in (low, low + span / 2, high):
        parts.append(f'<line class="spark-guide" x1="{pad}" y1="{_num(y_of(v))}" '
                     f'x2="{plot_right}" y2="{_num(y_of(v))}"/>')
    parts.append(f'<text class="spark-scale" x="{width - 2}" y="{_num(pad + 4)}" '
                 f'text-anchor="end">{escape(scale(high))}</text>')
    parts.append(f'<text class="spark-scale" x="{width - 2}" y="{height - 1}" '
                 f'text-anchor="end">{escape(scale(low))}</text>')
    step = (plot_right - 2 * pad) / max(1, n - 1)
    points = [None if v is None else (pad + i * step, y_of(v)) for i, v in enumerate(values)]
    for run in _runs(points):
        if len(run) == 1:
            x, y = run[0]
            parts.append(f'<circle class="spark-dot" cx="{_num(x)}" cy="{_num(y)}" r="2.5"/>')
        else:
            coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in run)
            parts.append(f'<polyline class="spark-line" points="{coords}"/>')
    drawn = [p for p in points if p is not None]
    if drawn:
        x, y = drawn[-1]
        parts.append(f'<circle class="spark-dot spark-last" cx="{_num(x)}" cy="{_num(y)}" r="3"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def line_chart(series: Sequence[Series], x_labels: Sequence[str], title: str,
               low: float, high: float, y_format: Callable[[float], str],
               width: int = 640, height: int = 220, ticks: int = 4) -> Markup:
    """Draw lines over shared x positions, with axes, grid, labels and a legend."""
    left, right, top, bottom = 48, 12, 12, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(1, len(x_labels))
    step = plot_w / max(1, n - 1)
    span = (high - low) or 1.0

    def x_at(i: int) -> float:
        return left + (i * step if n > 1 else plot_w / 2)

    def y_at(v: float) -> float:
        return top + plot_h - (min(high, max(low, v)) - low) / span * plot_h

    out = [
        f'<svg class="chart line-chart" width="{width}" height="{height + 18 * len(series)}" '
        f'viewBox="0 0 {width} {height + 18 * len(series)}" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for t in range(ticks + 1):
        value = low + span * t / ticks
        y = y_at(value)
        out.append(f'<line class="chart-grid" x1="{left}" y1="{_num(y)}" x2="{width - right}" '
                   f'y2="{_num(y)}"/>')
        out.append(f'<text x="{left - 6}" y="{_num(y + 4)}" text-anchor="end" '
                   f'class="chart-label">{escape(y_format(value))}</text>')
    label_every = max(1, round(n / 6))
    for i, label in enumerate(x_labels):
        if i % label_every == 0 or i == n - 1:
            out.append(f'<text x="{_num(x_at(i))}" y="{height - bottom + 16}" text-anchor="middle" '
                       f'class="chart-label">{escape(label)}</text>')
    for index, line in enumerate(series):
        colour = f"series-{index % len(DASHES)}"
        dash = DASHES[index % len(DASHES)]
        dash_style = f' stroke-dasharray="{dash}"' if dash else ""
        points = [None if v is None else (x_at(i), y_at(v)) for i, v in enumerate(line.values)]
        for run in _runs(points):
            coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in run)
            out.append(f'<polyline class="series {colour}" data-series="{escape(line.name)}" '
                       f'points="{coords}"{dash_style}/>')
            for x, y in run:
                out.append(f'<circle class="series-dot {colour}" cx="{_num(x)}" cy="{_num(y)}" r="2.5"/>')
        legend_y = height + 18 * index + 4
        out.append(f'<line class="series {colour}" x1="{left}" y1="{legend_y}" x2="{left + 24}" '
                   f'y2="{legend_y}"{dash_style}/>')
        out.append(f'<text x="{left + 30}" y="{legend_y + 4}" class="chart-label">'
                   f'{escape(line.name)}</text>')
    out.append("</svg>")
    return Markup("".join(out))


def bar_chart(bars: Sequence[tuple[str, float | None]], title: str,
              value_format: Callable[[float], str], high: float = 1.0,
              width: int = 480, bar_height: int = 22,
              marks: Sequence[tuple[str, float]] = ()) -> Markup:
    """Draw horizontal bars, one per label, with the value written beside each."""
    label_w, value_w, gap = 130, 56, 8
    plot_w = width - label_w - value_w
    height = max(1, len(bars)) * (bar_height + gap)
    out = [
        f'<svg class="chart bar-chart" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for index, (label, value) in enumerate(bars):
        y = index * (bar_height + gap)
        out.append(f'<text x="{label_w - 8}" y="{y + bar_height * 0.7:.1f}" text-anchor="end" '
                   f'class="chart-label">{escape(label)}</text>')
        out.append(f'<rect class="bar-track" x="{label_w}" y="{y}" width="{plot_w}" '
                   f'height="{bar_height}"/>')
        if value is not None:
            w = max(0.0, min(1.0, value / high)) * plot_w
            out.append(f'<rect class="bar" x="{label_w}" y="{y}" width="{_num(w)}" '
                       f'height="{bar_height}"/>')
        text = "—" if value is None else value_format(value)
        out.append(f'<text x="{width - value_w + 6}" y="{y + bar_height * 0.7:.1f}" '
                   f'class="chart-label">{escape(text)}</text>')
    for label, value in marks:
        x = label_w + max(0.0, min(1.0, value / high)) * plot_w
        out.append(f'<line class="bar-mark" x1="{_num(x)}" y1="0" x2="{_num(x)}" y2="{height}">'
                   f'<title>{escape(label)}</title></line>')
    out.append("</svg>")
    return Markup("".join(out))
