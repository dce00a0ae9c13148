"""Charts drawn on the server as inline SVG: no script, no asset from the internet; they print.

Each function takes plain numbers and returns ``Markup`` holding one ``<svg>``
with ``role="img"`` and an accessible name; the pages show the same figures in
tables beside the charts.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

# Distinct in colour and in print (the dash patterns tell series apart in grey).
PALETTE = (
    ("#0f5132", ""), ("#1f5f99", "6 3"), ("#b06d00", "2 3"), ("#8a2be2", "8 3 2 3"),
    ("#b02a37", "1 2"),
)


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
              height: int = 28, low: float = 0.0, high: float = 1.0) -> Markup:
    """Draw a small trend line of values between ``low`` and ``high``."""
    pad = 3
    n = len(values)
    if not n or all(v is None for v in values):
        return Markup(
            '<svg class="chart sparkline" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            'role="img" aria-label="{label}"><line x1="{p}" y1="{y}" x2="{x2}" y2="{y}" '
            'style="stroke:#d9ddd6;stroke-width:1"/></svg>'
        ).format(w=width, h=height, label=label, p=pad, y=height - pad, x2=width - pad)
    step = (width - 2 * pad) / max(1, n - 1)
    span = (high - low) or 1.0

    def at(i: int, v: float) -> tuple[float, float]:
        v = min(high, max(low, v))
        return pad + i * step, height - pad - (v - low) / span * (height - 2 * pad)

    points = [None if v is None else at(i, v) for i, v in enumerate(values)]
    parts = [
        '<svg class="chart sparkline" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'role="img" aria-label="{label}">'
    ]
    for run in _runs(points):
        if len(run) == 1:
            x, y = run[0]
            parts.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="1.5" style="fill:#0f5132"/>')
        else:
            coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in run)
            parts.append(
                f'<polyline points="{coords}" style="fill:none;stroke:#0f5132;stroke-width:1.5"/>'
            )
    last = next(p for p in reversed(points) if p is not None)
    parts.append(f'<circle cx="{_num(last[0])}" cy="{_num(last[1])}" r="2.2" style="fill:#0f5132"/>')
    parts.append("</svg>")
    return Markup("".join(parts)).format(w=width, h=height, label=label)


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
        out.append(f'<line x1="{left}" y1="{_num(y)}" x2="{width - right}" y2="{_num(y)}" '
                   'style="stroke:#d9ddd6;stroke-width:1"/>')
        out.append(f'<text x="{left - 6}" y="{_num(y + 4)}" text-anchor="end" '
                   f'class="chart-label">{escape(y_format(value))}</text>')
    label_every = max(1, round(n / 6))
    for i, label in enumerate(x_labels):
        if i % label_every == 0 or i == n - 1:
            out.append(f'<text x="{_num(x_at(i))}" y="{height - bottom + 16}" text-anchor="middle" '
                       f'class="chart-label">{escape(label)}</text>')
    for index, line in enumerate(series):
        colour, dash = PALETTE[index % len(PALETTE)]
        dash_style = f";stroke-dasharray:{dash}" if dash else ""
        points = [None if v is None else (x_at(i), y_at(v)) for i, v in enumerate(line.values)]
        for run in _runs(points):
            coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in run)
            out.append(f'<polyline class="series" data-series="{escape(line.name)}" points="{coords}" '
                       f'style="fill:none;stroke:{colour};stroke-width:2{dash_style}"/>')
            for x, y in run:
                out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="2.5" style="fill:{colour}"/>')
        legend_y = height + 18 * index + 4
        out.append(f'<line x1="{left}" y1="{legend_y}" x2="{left + 24}" y2="{legend_y}" '
                   f'style="stroke:{colour};stroke-width:2{dash_style}"/>')
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
        out.append(f'<rect x="{label_w}" y="{y}" width="{plot_w}" height="{bar_height}" '
                   'style="fill:#eef0ec"/>')
        if value is not None:
            w = max(0.0, min(1.0, value / high)) * plot_w
            out.append(f'<rect class="bar" x="{label_w}" y="{y}" width="{_num(w)}" '
                       f'height="{bar_height}" style="fill:#0f5132"/>')
        text = "—" if value is None else value_format(value)
        out.append(f'<text x="{width - value_w + 6}" y="{y + bar_height * 0.7:.1f}" '
                   f'class="chart-label">{escape(text)}</text>')
    for label, value in marks:
        x = label_w + max(0.0, min(1.0, value / high)) * plot_w
        out.append(f'<line x1="{_num(x)}" y1="0" x2="{_num(x)}" y2="{height}" '
                   'style="stroke:#b02a37;stroke-width:1.5;stroke-dasharray:3 2">'
                   f'<title>{escape(label)}</title></line>')
    out.append("</svg>")
    return Markup("".join(out))
