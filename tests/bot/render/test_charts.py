"""The diocese statistics chart, CSV and table: upstream numbers only, gaps kept, readable."""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import math
import subprocess
import sys
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest
from PIL import Image

from bot.a2a.lookups import DioceseStatistics, YearRow
from bot.render import chart_style
from bot.render.chart_style import drawable, drawable_part
from bot.render.charts import (
    MAIN_METRICS,
    MISSING,
    PlottedSeries,
    build_figure,
    chart_series,
    compact_number,
    numbers_csv,
    numbers_table,
    render_chart,
    render_png,
    with_gaps,
)
from devtools.fake_magisterium.lookup_statistics import METRICS as FAKE_METRICS

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.text import Text


# matplotlib (about 0.7 s) is imported where a figure is read, as the bot does: collecting the
# suite does not pay for it.
def to_rgb(colour: object) -> tuple[float, float, float]:
    from matplotlib.colors import to_rgb as rgb

    return rgb(colour)  # type: ignore[arg-type]


def to_rgba(colour: object) -> tuple[float, float, float, float]:
    from matplotlib.colors import to_rgba as rgba

    return rgba(colour)  # type: ignore[arg-type]


METRICS = list(FAKE_METRICS)  # the brief's 19 metrics, as the fake sends them
ABSENT_YEARS = {1981, 1982, 1999, 2013}
NULLS = {"parishes": {1990}, "baptisms": {2005, 2006}, "priests": {1976, 1978}}
KOREAN = "천주교 서울대교구"


def _value(metric: str, year: int) -> float | None:
    if year in NULLS.get(metric, ()):
        return None
    i = year - 1975
    base = {
        "catholics": 600_000 + 19_000.0 * i,
        "priests": 300 + 13.0 * i,
        "parishes": 110 + 2.5 * i,
        "baptisms": 18_000 - 210.0 * i + 400 * (i % 7),
        "percent_catholic": 5.5 + 0.125 * i,
    }
    return base.get(metric, float(METRICS.index(metric) * 1000 + i))


def make_stats(
    metrics: list[str] = METRICS, rename: dict[str, str] | None = None
) -> DioceseStatistics:

    rename = rename or {}
    rows = [
        YearRow(year=year, values={rename.get(m, m): _value(m, year) for m in metrics})
        for year in range(1975, 2025)
        if year not in ABSENT_YEARS
    ]
    return DioceseStatistics(
        query="seoul",
        diocese_id="diocese-seoul",
        diocese_name="Archdiocese of Seoul",
        metrics=[rename.get(m, m) for m in metrics],
        rows=rows,
    )


def upstream_pairs(stats: DioceseStatistics, key: str) -> set[tuple[int, float]]:
    return {(row.year, value) for row in stats.rows if (value := row.values.get(key)) is not None}


def plotted_lines(figure: Figure) -> list[tuple[Axes, Line2D]]:
    return [(ax, line) for ax in figure.axes for line in ax.get_lines()]


def points_of(line: Line2D) -> list[tuple[float, float]]:
    xs = np.asarray(line.get_xdata(), dtype=float)
    ys = np.asarray(line.get_ydata(), dtype=float)
    return [
        (float(x), float(y))
        for x, y in zip(xs, ys, strict=True)
        if not (math.isnan(x) or math.isnan(y))
    ]


def luminance(colour: object) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: object, b: object) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def drawn_texts(figure: Figure) -> list[Text]:
    from matplotlib.text import Text

    figure.draw_without_rendering()
    return [
        t
        for t in figure.findobj(Text)
        if isinstance(t, Text) and t.get_visible() and t.get_text().strip()
    ]


# --- the PNG ---------------------------------------------------------------------------------


def test_png_is_a_readable_opaque_1200_by_800_image_under_400_kb() -> None:
    png = render_chart(make_stats(), title="Archdiocese of Seoul")
    assert png is not None
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) < 400_000
    image = Image.open(io.BytesIO(png))
    width, height = image.size
    assert abs(width - 1200) <= 2 and abs(height - 800) <= 2
    pixels = np.asarray(image.convert("RGBA"))
    assert (pixels[:, :, 3] == 255).all()  # opaque: no theme shows through
    colours = np.unique(pixels.reshape(-1, 4), axis=0)
    assert len(colours) > 50  # text, four series, grid: not a blank card
    background = tuple(round(c * 255) for c in to_rgb(chart_style.BACKGROUND))
    assert tuple(pixels[0, 0, :3]) == background


def test_rendering_is_deterministic_and_works_in_a_worker_thread() -> None:
    stats = make_stats()
    here = render_chart(stats, title="Seoul")
    there = asyncio.run(asyncio.to_thread(render_chart, stats, title="Seoul"))
    assert here is not None and here == there


def test_charts_never_load_pyplot() -> None:
    code = (
        "import sys\n"
        "from bot.render.charts import render_png, build_figure, PlottedSeries\n"
        "render_png(build_figure([PlottedSeries('priests', 'Priests', ((2000, 1.0),))],"
        " title='t'))\n"
        "print('matplotlib.pyplot' in sys.modules)\n"
    )
    out = subprocess.run(  # noqa: S603 - our own interpreter, a fixed script
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"


# --- the numbers drawn -----------------------------------------------------------------------


def test_every_plotted_point_is_an_upstream_pair_and_none_is_dropped() -> None:
    stats = make_stats()
    figure = build_figure(chart_series(stats), title="Seoul")
    seen: dict[str, set[tuple[float, float]]] = {}
    for ax, line in plotted_lines(figure):
        key = line.get_gid()
        assert key is not None and ax.get_gid() is not None
        pairs = upstream_pairs(stats, key)
        for point in points_of(line):
            assert point in pairs, (key, point)
        seen.setdefault(key, set()).update(points_of(line))
    assert set(seen) == {"catholics", "priests", "parishes", "baptisms"}
    for key, points in seen.items():
        assert points == upstream_pairs(stats, key)


def test_a_missing_year_or_a_null_is_a_gap_never_a_segment() -> None:
    stats = make_stats()
    figure = build_figure(chart_series(stats), title="Seoul")
    checked = 0
    for _ax, line in plotted_lines(figure):
        if line.get_linestyle() in ("None", "none", ""):
            continue  # the marks for lone points: no segments to check
        xs = list(np.asarray(line.get_xdata(), dtype=float))
        ys = list(np.asarray(line.get_ydata(), dtype=float))
        for i in range(1, len(xs)):
            if math.isnan(ys[i]) or math.isnan(ys[i - 1]):
                continue
            assert xs[i] - xs[i - 1] == 1, (line.get_gid(), xs[i - 1], xs[i])  # joined: adjacent
            checked += 1
        # Every hole in the upstream years is a NaN in the line.
        present = sorted(x for x in xs if not math.isnan(x))
        holes = sum(1 for a, b in itertools.pairwise(present) if b - a > 1)
        assert sum(1 for y in ys if math.isnan(y)) == holes
    assert checked > 100


def test_with_gaps_separates_runs_with_nan() -> None:
    xs, ys = with_gaps([(2000, 1.0), (2001, 2.0), (2004, 3.0), (2006, 4.0)])
    assert xs[:2] == [2000, 2001] and ys[:2] == [1.0, 2.0]
    assert math.isnan(xs[2]) and math.isnan(ys[2])
    assert xs[3] == 2004 and math.isnan(ys[4]) and xs[5] == 2006
    assert with_gaps([]) == ([], [])


def test_a_lone_year_is_still_visible_as_a_mark() -> None:
    stats = DioceseStatistics(
        query="x",
        metrics=["parishes"],
        rows=[YearRow(year=y, values={"parishes": 10.0 * y}) for y in (1980, 1990, 1991)],
    )
    figure = build_figure(chart_series(stats), title="x")
    lines = figure.axes[0].get_lines()
    assert all(line.get_marker() not in (None, "None", "none", "") for line in lines)
    lone = [line for line in lines if line.get_linestyle() in ("None", "none")]
    assert len(lone) == 1 and points_of(lone[0]) == [(1980.0, 19800.0)]


def test_counts_start_from_zero_and_ticks_are_compact() -> None:
    figure = build_figure(chart_series(make_stats()), title="Seoul")
    catholics = next(ax for ax in figure.axes if ax.get_gid() == "catholics")
    assert catholics.get_ylim()[0] == 0
    figure.draw_without_rendering()
    labels = [t.get_text() for t in catholics.get_yticklabels() if t.get_text()]
    assert "1M" in labels and all(len(label) <= 5 for label in labels)


@pytest.mark.parametrize(
    ("value", "text"),
    [(0, "0"), (40, "40"), (350_000, "350k"), (1_200_000, "1.2M"), (2.5e9, "2.5B"), (1500, "1.5k")],
)
def test_compact_number(value: float, text: str) -> None:
    assert compact_number(value) == text


# --- readable in both themes -----------------------------------------------------------------


def test_text_and_series_colours_contrast_with_the_opaque_background() -> None:
    figure = build_figure(chart_series(make_stats()), title="Seoul")
    background = figure.get_facecolor()
    assert to_rgba(background)[3] == 1  # opaque
    for ax in figure.axes:
        assert contrast(ax.get_facecolor(), background) == 1  # panels share the card
    texts = drawn_texts(figure)
    assert len(texts) > 20
    for text in texts:
        assert contrast(text.get_color(), background) >= 7, text.get_text()
    colours = {line.get_color() for _ax, line in plotted_lines(figure)}
    assert len(colours) == 4  # one per series, each with its own marker too
    for colour in colours:
        assert contrast(colour, background) >= 3, colour


def test_every_text_is_at_least_11_pt() -> None:
    figure = build_figure(chart_series(make_stats()), title="Seoul")
    assert figure.dpi == chart_style.DPI
    for text in drawn_texts(figure):
        assert float(text.get_fontsize()) >= 11, text.get_text()


def test_each_panel_is_titled_and_the_heading_has_the_year_range() -> None:
    figure = build_figure(chart_series(make_stats()), title="Archdiocese of Seoul")
    assert [ax.get_title(loc="left") for ax in figure.axes] == [m.label for m in MAIN_METRICS]
    suptitle = figure.get_suptitle()
    assert "Archdiocese of Seoul" in suptitle and "1975–2024" in suptitle


# --- which series ----------------------------------------------------------------------------


def test_an_alias_is_found_and_plotted_from_its_own_key() -> None:
    stats = make_stats(rename={"priests": "total_priests", "catholics": "total_catholics"})
    series = {s.metric: s for s in chart_series(stats)}
    assert series["priests"].source == "total_priests"
    assert series["priests"].label == "Priests"
    assert set(series["priests"].points) == upstream_pairs(stats, "total_priests")
    assert series["catholics"].source == "total_catholics"
    figure = build_figure(list(series.values()), title="x")
    assert {line.get_gid() for _ax, line in plotted_lines(figure)} >= {"total_priests"}


def test_the_first_alias_with_a_value_wins() -> None:
    rows = [
        YearRow(year=2000, values={"priests": None, "total_priests": 5.0, "priests_total": 9.0})
    ]
    stats = DioceseStatistics(query="x", metrics=["priests", "total_priests"], rows=rows)
    (series,) = chart_series(stats)
    assert series.source == "total_priests" and series.points == ((2000, 5.0),)


def test_a_series_missing_entirely_leaves_three_panels() -> None:
    stats = make_stats([m for m in METRICS if m != "baptisms"])
    series = chart_series(stats)
    assert [s.metric for s in series] == ["catholics", "priests", "parishes"]
    figure = build_figure(series, title="Seoul")
    assert [ax.get_gid() for ax in figure.axes] == ["catholics", "priests", "parishes"]
    png = render_png(figure)
    assert Image.open(io.BytesIO(png)).size == (1200, 800)


def test_one_series_gets_one_panel() -> None:
    stats = make_stats(["parishes", "population"])
    figure = build_figure(chart_series(stats), title="Seoul")
    assert [ax.get_gid() for ax in figure.axes] == ["parishes"]


def test_no_main_series_means_no_chart() -> None:
    only_other = make_stats(["population", "deaths"])
    assert chart_series(only_other) == []
    assert render_chart(only_other, title="Seoul") is None
    all_null = DioceseStatistics(
        query="x", metrics=["priests"], rows=[YearRow(year=2000, values={"priests": None})]
    )
    assert render_chart(all_null, title="x") is None
    assert render_chart(DioceseStatistics(query="x"), title="x") is None
    with pytest.raises(ValueError, match="no series"):
        build_figure([], title="x")


def test_translated_labels_are_used_and_english_fills_the_rest() -> None:
    series = chart_series(make_stats(), {"priests": "Prêtres", "catholics": ""})
    assert [s.label for s in series] == ["Catholics", "Prêtres", "Parishes", "Baptisms"]


# --- glyphs ----------------------------------------------------------------------------------


def test_drawable_knows_what_dejavu_sans_lacks() -> None:
    assert drawable("Archidiocèse de Séoul · 1975–2024 — Ωμέγα")
    assert not drawable(KOREAN)
    assert not drawable("Seoul 🙏")
    assert drawable_part(f"{KOREAN} (Seoul)") == "Seoul"
    assert drawable_part(KOREAN) == ""


def _render_warnings(
    title: str, fallback_title: str | None = None, labels: dict[str, str] | None = None
) -> tuple[list[str], Figure]:
    series = chart_series(make_stats(), labels)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure = build_figure(series, title=title, fallback_title=fallback_title)
        render_png(figure)
    # Garbage from other tests (an unclosed loop…) may warn meanwhile; drawing warns UserWarning.
    return [str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)], figure


def test_an_undrawable_title_would_warn_so_the_check_below_means_something() -> None:
    from matplotlib.figure import Figure

    figure = Figure()
    figure.suptitle(KOREAN)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        render_png(figure)
    assert any("Glyph" in str(w.message) for w in caught)


def test_a_korean_title_falls_back_without_glyph_warnings() -> None:
    messages, figure = _render_warnings(title=KOREAN, fallback_title="Archdiocese of Seoul")
    assert messages == []
    assert figure.get_suptitle() == "Archdiocese of Seoul · 1975–2024"

    messages, figure = _render_warnings(title=f"{KOREAN} (Seoul)")
    assert messages == []
    assert figure.get_suptitle() == "Seoul · 1975–2024"

    messages, figure = _render_warnings(title=KOREAN)
    assert messages == []
    assert figure.get_suptitle() == "1975–2024"


def test_a_korean_label_falls_back_to_english_on_the_chart_only() -> None:
    labels = {"catholics": "신자", "priests": "사제"}
    messages, figure = _render_warnings(title="Seoul", labels=labels)
    assert messages == []
    assert [ax.get_title(loc="left") for ax in figure.axes][:2] == ["Catholics", "Priests"]
    table = numbers_table(chart_series(make_stats(), labels))
    assert "신자" in table  # Discord draws it; only the chart's font cannot


def test_a_title_with_dollar_signs_is_not_parsed_as_math() -> None:
    title = "St. $\\nosuchcommand{$ 5"  # as mathtext: a ValueError when drawn
    messages, figure = _render_warnings(title=title)
    assert messages == []
    assert figure.get_suptitle().startswith(title)
    messages, figure = _render_warnings(title="x", labels={"priests": title})
    assert messages == []
    assert figure.axes[1].get_title(loc="left") == title


def test_a_long_title_is_shortened_to_one_line() -> None:
    figure = build_figure(chart_series(make_stats()), title="Archdiocese " * 20)
    assert len(figure.get_suptitle()) <= chart_style.TITLE_MAX + len(" · 1975–2024")
    assert "…" in figure.get_suptitle()


# --- for those who read rather than look -----------------------------------------------------


def test_numbers_csv_round_trips_every_row_and_metric() -> None:
    stats = make_stats()
    data = numbers_csv(stats)
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    assert rows[0] == ["year", *METRICS]
    assert len(rows) == 1 + len(stats.rows) == 1 + 50 - len(ABSENT_YEARS)
    for row, upstream in zip(rows[1:], stats.rows, strict=True):
        assert int(row[0]) == upstream.year
        for metric, cell in zip(METRICS, row[1:], strict=True):
            value = upstream.values.get(metric)
            assert (cell == "") == (value is None)
            if value is not None:
                assert float(cell) == value
    assert rows[1][METRICS.index("percent_catholic") + 1] == "5.5"
    assert rows[1][1] == "600000"  # whole numbers without ".0"


def test_numbers_csv_keeps_keys_the_metric_list_missed_and_defuses_formulas() -> None:
    stats = DioceseStatistics(
        query="x",
        metrics=["priests"],
        rows=[
            YearRow(year=2000, values={"priests": 1.0}),
            YearRow(year=2001, values={"=cmd": 2.0}),
        ],
    )
    rows = list(csv.reader(io.StringIO(numbers_csv(stats).decode("utf-8"))))
    assert rows == [["year", "priests", "'=cmd"], ["2000", "1", ""], ["2001", "", "2"]]


def test_numbers_table_shows_the_latest_years_with_dashes_for_gaps() -> None:
    series = chart_series(make_stats())
    table = numbers_table(series, last_years=25)
    assert len(table) <= 1024
    assert table.startswith("```\n") and table.endswith("\n```")
    lines = table.strip("`\n").splitlines()
    assert lines[0].split() == ["Year", "Catholics", "Priests", "Parishes", "Baptisms"]
    years = [int(line.split()[0]) for line in lines[1:]]
    assert years == sorted(years) and years[-1] == 2024
    assert 2013 not in years  # absent upstream
    row_2005 = next(line for line in lines if line.startswith("2005"))
    assert row_2005.split()[-1] == MISSING  # baptisms null that year
    assert "1,531,000" in lines[-1]
    assert len({len(line) for line in lines}) == 1  # columns line up


def test_numbers_table_defaults_to_ten_years_and_takes_a_format() -> None:
    series = chart_series(make_stats())
    table = numbers_table(series, number_format=compact_number, year_label="Année")
    lines = table.strip("`\n").splitlines()
    assert lines[0].startswith("Année")
    assert [line.split()[0] for line in lines[1:]] == [str(y) for y in range(2015, 2025)]
    assert "1.53M" in lines[-1]


def test_numbers_table_shrinks_to_fit_an_embed_field() -> None:
    points = tuple((year, 123_456_789.0) for year in range(1975, 2025))
    wide = [PlottedSeries(f"m{i}", "A very long metric label " * 3, points) for i in range(8)]
    table = numbers_table(wide, last_years=50)
    assert 0 < len(table) <= 1024
    assert "2024" in table
    assert numbers_table([]) == ""
    assert len(numbers_table(wide, limit=1)) <= 1
