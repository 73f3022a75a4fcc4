"""Write the balance report: ``report.md``, a self-contained ``report.html``, PNGs and CSVs.

Layout of ``out_dir``::

    report.md          Markdown (figures linked from figures/)
    report.html        one file: CSS inline, figures embedded as base64 data URIs
    figures/*.png      the plots
    tables/*.csv       every table at full precision (rates as fractions 0..1)
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

import pandas as pd

from . import plots
from . import robustness as rob
from .answers import RUNG, answers_section, methods_section, provenance_section, rungs
from .data import normalize, standard_runs
from .findings import ANSWER_TOPICS, rank_findings, summary
from .findings import COLUMNS as FINDING_COLUMNS
from .player_sections import occupation_section, seat_section, start_item_section
from .sections import (
    Section,
    added_item_section,
    drink_section,
    length_section,
    loge_section,
    outcome_section,
    variant_section,
)
from .tables import build_tables

# Cells wrap, so a table shrinks to the page rather than scrolling; a table of 8 or more columns
# (the answers with their verdicts, the robustness table) takes a little more than the text's
# width, up to 12rem a side, in smaller type, left-aligned (its cells are words and intervals
# that wrap). It fits a 1280-px window without a horizontal scrollbar; .scroll stays as a last
# resort for narrower screens. :has() needs Chromium 105, Firefox 121 or Safari 15.4; an older
# browser shows the wide tables at the text's width, wrapped.
CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#1a1a1a;line-height:1.5}
h1{border-bottom:2px solid #0072B2;padding-bottom:.2em}h2{margin-top:2em;border-bottom:1px solid #ccc}
code{background:#f3f3f3;padding:0 .25em;border-radius:3px}
pre{background:#f6f6f6;padding:.8em;overflow-x:auto}
table{border-collapse:collapse;margin:.8em 0;font-size:.85em;font-variant-numeric:tabular-nums}
th,td{border:1px solid #ddd;padding:.25em .6em;text-align:right;white-space:normal;overflow-wrap:break-word}
th{background:#eef4fa;vertical-align:bottom}td{vertical-align:top}tr:nth-child(even) td{background:#fafafa}
td:first-child,th:first-child{text-align:left}
.scroll{overflow-x:auto}figure{margin:1em 0}img{max-width:100%;height:auto}
.scroll:has(th:nth-child(8)){margin:0 max(calc(50% - 50vw + 1.5em),-12rem)}
.scroll:has(th:nth-child(8)) table{font-size:.78em;line-height:1.35;margin:.8em auto}
.scroll:has(th:nth-child(8)) :is(td,th){text-align:left}
figcaption,.caption{font-size:.9em;color:#555}.cmd{font-size:.95em}li{margin:.3em 0}
"""

FIGURES = {"outcomes": "win_rates_heatmap.png", "drink": "drink_of_power.png", "loge": "loge.png",
           "seats": "seats.png", "occupations": "occupations.png", "start_items": "start_items.png",
           "lengths": "game_length.png", "robustness": "robustness.png"}

RECOMPUTE = '''import pandas as pd
df = pd.read_parquet("RESULTS_DIR")
std = df[(df.variant == "base") & (df.drink | (df.players % 2 == 0))]   # standard rules
std.groupby(["players", "item_set"], observed=True).winner.value_counts(normalize=True)'''


RECOMPUTE_TEXT = ("Every table above is a few lines of pandas on the results store, for example the shares of "
                  "games won in *Who wins* "
                  "(replace `RESULTS_DIR`; a seat wins when `winner` is its `team_{p}`, or `winner == \"solo\"` "
                  "and `solo_seat == p`):")


def _recompute(top_rung) -> str:
    """:data:`RECOMPUTE`, for a ladder on its top rung's games (those of every table but the robustness section's)."""
    if top_rung is None:
        return RECOMPUTE
    head, tail = RECOMPUTE.split("\nstd = ", 1)
    return f'{head}\ndf = df[df.rung == "{top_rung}"]   # the top rung\nstd = {tail}'


def _inline_html(text: str) -> str:
    """Markdown inline marks (`code`, **bold**) to HTML, everything else escaped."""
    t = html.escape(text)
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    t = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", t)
    return re.sub(r"\*([^*]+)\*", r"<em>\1</em>", t)


def _md_table(df: pd.DataFrame) -> str:
    def cell(v) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")
    head = "| " + " | ".join(cell(c) for c in df.columns) + " |"
    sep = "|" + "|".join("---" for _ in df.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in r) + " |" for r in df.itertuples(index=False)]
    return "\n".join([head, sep, *rows])


def _findings_section(findings: pd.DataFrame) -> Section:
    sec = Section("Findings", csv=["findings.csv"])
    intro, real, noise_intro, noise = summary(findings)
    sec.para(intro)
    sec.bullets(real)
    if noise_intro:
        sec.para(noise_intro)
        sec.bullets(noise)
    if "robustness" in findings:
        sec.para(rob.findings_paragraph(findings))
    sec.para("Every check, ranked, with its test, both intervals and its verdict, is in `tables/findings.csv`.")
    return sec


def _figures(t: dict[str, pd.DataFrame], std: pd.DataFrame, findings: pd.DataFrame,
             fig_dir: Path) -> dict[str, str | None]:
    cells = findings[findings["topic"] == "team balance by item set"] if len(findings) else findings
    made = {
        "outcomes": plots.outcome_heatmap(t["outcomes"], t["order_share"], fig_dir / FIGURES["outcomes"],
                                          verdicts=cells),
        "drink": plots.drink_plot(t["minority"], t["drink_effect"], fig_dir / FIGURES["drink"]),
        "loge": plots.loge_plot(t["solo"], t["loge_team"], fig_dir / FIGURES["loge"]),
        "seats": plots.seat_plot(t["seats"], fig_dir / FIGURES["seats"]),
        "occupations": plots.occupation_plot(t["occupations"], fig_dir / FIGURES["occupations"]),
        "start_items": plots.start_item_plot(t["start_items"], fig_dir / FIGURES["start_items"]),
        "lengths": plots.length_plot(std, t["lengths"], fig_dir / FIGURES["lengths"]),
    }
    return {k: (f"figures/{p.name}" if p else None) for k, p in made.items()}


def _to_markdown(sections: list[Section]) -> str:
    out = []
    for i, s in enumerate(sections):
        out.append(f"{'#' if i == 0 else '##'} {s.title}\n")
        for kind, value in s.blocks:
            if kind == "text":
                out.append(f"{value}\n")
            elif kind == "bullets":
                out.append("\n".join(f"- {b}" for b in value) + "\n")
            elif kind == "image":
                src, alt = value
                out.append(f"![{alt}]({src})\n")
            elif kind == "code":
                out.append(f"```python\n{value}\n```\n")
            else:
                caption, table = value
                out.append(f"**{caption}**\n\n{_md_table(table)}\n")
        if s.csv:
            out.append("CSV: " + ", ".join(f"[{c}](tables/{c})" for c in s.csv) + "\n")
    return "\n".join(out)


def _to_html(sections: list[Section], out_dir: Path, title: str) -> str:
    body = []
    for i, s in enumerate(sections):
        h = 1 if i == 0 else 2
        body.append(f"<h{h}>{_inline_html(s.title)}</h{h}>")
        for kind, value in s.blocks:
            if kind == "text":
                body.append(f"<p>{_inline_html(value)}</p>")
            elif kind == "bullets":
                body.append("<ul>" + "".join(f"<li>{_inline_html(b)}</li>" for b in value) + "</ul>")
            elif kind == "code":
                body.append(f"<pre><code>{html.escape(value)}</code></pre>")
            elif kind == "image":
                src, alt = value
                data = base64.b64encode((out_dir / src).read_bytes()).decode("ascii")
                body.append(f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'
                            f"<figcaption>{html.escape(alt)}</figcaption></figure>")
            else:
                caption, table = value
                body.append(f'<p class="caption"><strong>{html.escape(caption)}</strong></p><div class="scroll">'
                            + table.to_html(index=False, border=0, escape=True, na_rep="–") + "</div>")
        if s.csv:
            body.append('<p class="caption">CSV: ' + ", ".join(
                f'<a href="tables/{html.escape(c)}">{html.escape(c)}</a>' for c in s.csv) + "</p>")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{CSS}</style></head>'
            f"<body>\n{chr(10).join(body)}\n</body></html>\n")


def write_report(df: pd.DataFrame, out_dir: Path, *, title: str = "Kutschfahrt balance report",
                 command: str | None = None, manifest: dict | None = None) -> Path:
    """Write the full report for the per-game results ``df`` into ``out_dir``; return ``report.html``.

    The report opens with the answers and ends with its provenance: ``command`` (the command
    line that produced the data, falling back to ``manifest["command"]``) and the scalar entries
    of ``manifest``. With several skill rungs (a ``rung`` column, ordered by ``rung_level``) every
    table is the top rung's, a section shows the headline numbers at every rung with their
    robustness verdicts (:mod:`.robustness`), and the answers and findings carry those verdicts.
    """
    out_dir = Path(out_dir)
    (out_dir / "tables").mkdir(parents=True, exist_ok=True)
    d = normalize(df)
    levels = rungs(d)
    every_rung, top = d, (levels[-1] if levels else None)
    if levels:
        d = d[d[RUNG] == top]
    std = standard_runs(d)
    t = build_tables(d)
    findings = rank_findings(t) if len(std) else pd.DataFrame(columns=FINDING_COLUMNS)
    answers = findings[findings["topic"].isin(ANSWER_TOPICS)].drop(columns="rank")
    csv = dict(t)
    ladder_sec, robust = None, None
    if levels:
        by_rung = {r: rob.rung_tables(every_rung[every_rung[RUNG] == r]) for r in levels[:-1]} | {top: t}
        values = rob.ladder_values(by_rung)
        shared = rob.same_deals(every_rung, levels)
        verdicts = rob.judge(every_rung, levels, values, shared)
        robust = rob.answer_robustness(verdicts)
        if len(answers):
            answers = answers.merge(robust, on=["topic", "players"], how="left")
        findings = findings.assign(robustness=rob.findings_verdicts(findings, verdicts))
        img = plots.robustness_plot(values, {k: (h.short, h.share) for k, h in rob.HEADLINES.items()},
                                    out_dir / "figures" / FIGURES["robustness"])
        games = every_rung.groupby(RUNG, observed=True).size().reindex(levels)
        ladder_sec = rob.robustness_section(values, verdicts, games, shared, f"figures/{img.name}" if img else None)
        csv |= {"robustness": values, "robustness_verdicts": verdicts}
    for name, table in {**csv, "findings": findings, "answers": answers}.items():
        table.to_csv(out_dir / "tables" / f"{name}.csv", index=False)
    figs = _figures(t, std, findings, out_dir / "figures")
    sections = [
        Section(title),
        answers_section(t, findings, robust, top),
        _findings_section(findings),
        *([ladder_sec] if ladder_sec else []),
        methods_section(findings),
        outcome_section(t, std, figs["outcomes"]),
        drink_section(t, figs["drink"]),
        loge_section(t, figs["loge"]),
        seat_section(t, figs["seats"]),
        occupation_section(t, figs["occupations"]),
        start_item_section(t, figs["start_items"]),
        added_item_section(t),
        length_section(t, figs["lengths"]),
        variant_section(t),
        Section("Recompute any number", blocks=[("text", RECOMPUTE_TEXT), ("code", _recompute(top))]),
        provenance_section(d, std, command, manifest, (top, len(levels), len(every_rung)) if levels else None),
    ]
    (out_dir / "report.md").write_text(_to_markdown(sections), encoding="utf-8")
    path = out_dir / "report.html"
    path.write_text(_to_html(sections, out_dir, title), encoding="utf-8")
    return path
