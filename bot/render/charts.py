"""A diocese's yearly statistics as a PNG chart, a CSV file and a small table.

The chart draws on a :class:`~matplotlib.figure.Figure` of its own with the Agg canvas, never
pyplot, so there is no global state and it is safe in a worker thread. A year with no value is
a gap in the line, never interpolated.
"""

from __future__ import annotations

import csv
import io
import math
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.a2a.lookups import DioceseStatistics
from bot.i18n import N_, _
from bot.render import chart_style as style
from bot.render.discord_limits import FIELD_VALUE

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

MISSING = "—"


@dataclass(frozen=True)
class MainMetric:
    name: str  # canonical key, also the key of a translated label
    label: str  # English label
    aliases: tuple[str, ...]  # upstream keys to look for, first with a value wins


MAIN_METRICS: tuple[MainMetric, ...] = (
    MainMetric(
        "catholics",
        # Translators: a diocese's statistics: the number of Catholics (a chart panel's title).
        N_("Catholics"),
        ("catholics", "catholic_population", "total_catholics"),
    ),
    MainMetric("priests", N_("Priests"), ("priests", "total_priests", "priests_total")),
    MainMetric("parishes", N_("Parishes"), ("parishes",)),
    MainMetric("baptisms", N_("Baptisms"), ("baptisms", "infant_baptisms", "total_baptisms")),
)
DEFAULT_LABELS: Mapping[str, str] = {m.name: m.label for m in MAIN_METRICS}
# Translators: the first column's heading in a table of a diocese's numbers by year.
YEAR = N_("Year")


def translated_labels() -> dict[str, str]:
    """The main metrics' labels in the reader's language, for :func:`chart_series`."""
    return {m.name: _(m.label) for m in MAIN_METRICS}


@dataclass(frozen=True)
class PlottedSeries:
    metric: str  # canonical name ("priests")
    label: str
    points: tuple[tuple[int, float], ...]  # years ascending, unique, finite values
    source: str = ""  # the upstream key the points came from ("total_priests"); "" = metric

    @property
    def key(self) -> str:
        return self.source or self.metric


def _clean(points: Iterable[tuple[int, float]]) -> tuple[tuple[int, float], ...]:
    seen: dict[int, float] = {}
    for year, value in points:
        if year not in seen and math.isfinite(value):
            seen[year] = value
    return tuple(sorted(seen.items()))


def chart_series(
    stats: DioceseStatistics, labels: Mapping[str, str] | None = None
) -> list[PlottedSeries]:
    """The main series that have at least one value, in MAIN_METRICS order.

    ``labels`` maps a canonical name to its (translated) label; English where absent.
    """
    found = []
    for metric in MAIN_METRICS:
        for alias in metric.aliases:
            points = _clean(stats.series(alias))
            if points:
                label = (labels or {}).get(metric.name) or metric.label
                found.append(PlottedSeries(metric.name, label, points, alias))
                break
    return found


def compact_number(value: float) -> str:
    """A short axis label: 1.2M, 350k, 40, 0."""
    size = abs(value)
    for factor, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if size >= factor:
            return f"{value / factor:.3g}{suffix}"
    return f"{value:.3g}"


def with_gaps(points: Sequence[tuple[int, float]]) -> tuple[list[float], list[float]]:
    """x and y for a line, with a NaN between two points more than a year apart."""
    xs: list[float] = []
    ys: list[float] = []
    for i, (year, value) in enumerate(points):
        if i and year - points[i - 1][0] > 1:
            xs.append(math.nan)
            ys.append(math.nan)
        xs.append(year)
        ys.append(value)
    return xs, ys


def lone_points(points: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """The points with no value the year before or after: no line segment touches them."""
    years = {year for year, _value in points}
    return [(y, v) for y, v in points if y - 1 not in years and y + 1 not in years]


def _panel_label(series: PlottedSeries) -> str:
    if style.drawable(series.label):
        return series.label
    english = DEFAULT_LABELS.get(series.metric)
    return english or style.drawable_part(series.label) or series.metric


def _display_title(title: str, fallback: str | None) -> str:
    title = " ".join(title.split())
    if not style.drawable(title):
        fallback = " ".join((fallback or "").split())
        if fallback and style.drawable(fallback):
            title = fallback
        else:
            title = style.drawable_part(title)
            if not any(ch.isalnum() for ch in title):
                title = ""
    if len(title) > style.TITLE_MAX:
        title = title[: style.TITLE_MAX - 1].rstrip() + "…"
    return title


def _year_range(series: Sequence[PlottedSeries]) -> tuple[int, int]:
    years = [year for s in series for year, _value in s.points]
    return min(years), max(years)


def _style_axes(ax: Axes, series: PlottedSeries, years: tuple[int, int]) -> None:
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax.set_facecolor(style.BACKGROUND)
    ax.set_title(
        _panel_label(series),
        loc="left",
        color=style.TEXT,
        fontsize=style.PANEL_TITLE_SIZE,
        fontweight="bold",
        family=style.FAMILY,
        parse_math=False,
    )
    ax.tick_params(
        colors=style.TEXT, labelsize=style.TICK_SIZE, labelfontfamily=style.FAMILY, length=3
    )
    for name, spine in ax.spines.items():
        spine.set_visible(name in ("left", "bottom"))
        spine.set_color(style.SPINE)
    ax.grid(axis="y", color=style.GRID, linewidth=0.6)
    ax.set_axisbelow(True)

    first, last = years
    ax.set_xlim(first - 0.8, last + 0.8)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=4, integer=True, steps=[1, 2, 2.5, 5, 10]))
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _pos: compact_number(value)))
    values = [value for _year, value in series.points]
    if min(values) >= 0:  # counts: from zero, so a change is never exaggerated
        ax.set_ylim(0, (max(values) or 1.0) * 1.12)
    else:
        ax.margins(y=0.12)


def build_figure(
    series: Sequence[PlottedSeries], *, title: str, fallback_title: str | None = None
) -> Figure:
    """Small multiples, one panel per series (their sizes differ ten-thousandfold).

    ``title`` (a diocese name) heads the chart with the year range; where the bundled font
    cannot draw it, ``fallback_title`` is used, or else the part of it that can be drawn.
    """
    from matplotlib.figure import Figure

    if not series:
        raise ValueError("no series to chart")
    years = _year_range(series)
    figure = Figure(figsize=style.FIGSIZE, dpi=style.DPI, layout="constrained")
    figure.set_facecolor(style.BACKGROUND)
    cols = 1 if len(series) == 1 else 2
    rows = math.ceil(len(series) / cols)
    for index, one in enumerate(series):
        ax = figure.add_subplot(rows, cols, index + 1)
        ax.set_gid(one.metric)
        _style_axes(ax, one, years)
        colour = (
            style.SERIES_COLOURS.get(one.metric)
            or style.OTHER_COLOURS[index % len(style.OTHER_COLOURS)]
        )
        xs, ys = with_gaps(one.points)
        (line,) = ax.plot(
            xs,
            ys,
            color=colour,
            linewidth=style.LINE_WIDTH,
            marker=style.MARKERS.get(one.metric, "o"),
            markersize=style.MARKER_SIZE,
            label=one.label,
        )
        line.set_gid(one.key)
        lone = lone_points(one.points)
        if lone:
            (marks,) = ax.plot(
                [year for year, _value in lone],
                [value for _year, value in lone],
                color=colour,
                linestyle="none",
                marker=style.MARKERS.get(one.metric, "o"),
                markersize=style.LONE_MARKER_SIZE,
            )
            marks.set_gid(one.key)

    first, last = years
    span = f"{first}–{last}" if first != last else str(first)
    heading = _display_title(title, fallback_title)
    figure.suptitle(
        f"{heading} · {span}" if heading else span,
        color=style.TEXT,
        fontsize=style.TITLE_SIZE,
        fontweight="bold",
        family=style.FAMILY,
        parse_math=False,
    )
    return figure


def render_png(figure: Figure) -> bytes:
    """The figure as an opaque RGB PNG at its own dpi."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    canvas = FigureCanvasAgg(figure)
    raw = io.BytesIO()
    figure.savefig(
        raw, format="rgba", dpi=figure.dpi, facecolor=figure.get_facecolor(), transparent=False
    )
    image = Image.frombytes("RGBA", canvas.get_width_height(physical=True), raw.getvalue())
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG")
    return out.getvalue()


def render_chart(
    stats: DioceseStatistics,
    *,
    title: str,
    labels: Mapping[str, str] | None = None,
    fallback_title: str | None = None,
) -> bytes | None:
    """The PNG chart of the main series, or None when none of them has a value."""
    series = chart_series(stats, labels)
    if not series:
        return None
    return render_png(build_figure(series, title=title, fallback_title=fallback_title))


def _csv_number(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return ""
    return str(int(value)) if value.is_integer() else repr(value)


def _csv_safe(cell: str) -> str:
    # A header cell a spreadsheet would run as a formula.
    return "'" + cell if cell[:1] in ("=", "+", "-", "@") else cell


def numbers_csv(stats: DioceseStatistics) -> bytes:
    """Every row and every metric (stats.metrics order) as UTF-8 CSV; blank where no value."""
    metrics = list(stats.metrics)
    for row in stats.rows:  # keys the metrics list missed, so no number is lost
        metrics.extend(key for key in row.values if key not in metrics)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["year", *(_csv_safe(m) for m in metrics)])
    for row in stats.rows:
        writer.writerow([row.year, *(_csv_number(row.values.get(m)) for m in metrics)])
    return out.getvalue().encode("utf-8")


def thousands(value: float) -> str:
    """1234567.0 → ``1,234,567``."""
    return f"{round(value):,}"


def _width(text: str) -> int:
    """Monospace columns: East Asian wide characters take two."""
    return sum(
        0
        if unicodedata.combining(ch)
        else 2
        if unicodedata.east_asian_width(ch) in ("W", "F")
        else 1
        for ch in text
    )


def _pad(text: str, width: int) -> str:
    return " " * (width - _width(text)) + text


def _cell_label(label: str, limit: int | None) -> str:
    label = " ".join(label.replace("`", "'").split())
    if limit is not None and len(label) > limit:
        label = label[: limit - 1] + "…"
    return label


def _table(
    series: Sequence[PlottedSeries],
    years: Sequence[int],
    number_format: Callable[[float], str],
    year_label: str,
    label_limit: int | None,
) -> str:
    header = [
        _cell_label(year_label, label_limit),
        *(_cell_label(s.label, label_limit) for s in series),
    ]
    values = [dict(s.points) for s in series]
    body = [
        [str(year), *(number_format(v[year]) if year in v else MISSING for v in values)]
        for year in years
    ]
    widths = [max(_width(row[i]) for row in (header, *body)) for i in range(len(header))]
    lines = [
        "  ".join(_pad(cell, widths[i]) for i, cell in enumerate(row)) for row in (header, *body)
    ]
    return "```\n" + "\n".join(lines) + "\n```"


def numbers_table(
    series: Sequence[PlottedSeries],
    *,
    last_years: int = 10,
    number_format: Callable[[float], str] = thousands,
    year_label: str | None = None,
    limit: int = FIELD_VALUE,
) -> str:
    """The plotted series for the latest ``last_years`` years with a value, as a code block.

    ``year_label`` heads the years' column: "Year" in the reader's language by default.

    At most ``limit`` characters (an embed field): fewer years, then shorter labels, then fewer
    series where it would not fit. "" when there is nothing to show.
    """
    years = sorted({year for s in series for year, _value in s.points})[-max(last_years, 1) :]
    if not years:
        return ""
    if year_label is None:
        year_label = _(YEAR)
    columns = list(series)
    label_limit: int | None = None
    while True:
        for count in range(len(years), 0, -1):
            text = _table(columns, years[-count:], number_format, year_label, label_limit)
            if len(text) <= limit:
                return text
        if label_limit is None:
            label_limit = 10
        elif len(columns) > 1:
            columns.pop()
        else:
            return ""
