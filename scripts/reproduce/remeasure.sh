#!/usr/bin/env bash
# Regenerate every seeded figure that README.md, docs/ and reports/ quote, one step after another
# ("Feeds" below says which file).
#
#   bash scripts/reproduce/remeasure.sh            # the core steps (the documents' current figures)
#   bash scripts/reproduce/remeasure.sh all        # core steps, then the extras
#   bash scripts/reproduce/remeasure.sh bots_eval calibration   # just these steps
#
# Steps (in this order; on the 2-core machine the core steps take about half an hour):
#   core:   sample bots_eval variants calibration end_beliefs smart_vs_v2 decision_checks limit_gifts wrong_decl variants_sanity
#   extras: soft_trust cycle_profile ladder search search_calibration balance
#
# What it writes:
#   runs/remeasure/log.txt         start/end time of every step (appended)
#   runs/remeasure/out/<step>.out/.err stdout/stderr of every step; the scripts' outputs under out/
#   runs/remeasure/old_reports/    a copy of reports/ taken before the first step (only if absent)
#   reports/sample-study, reports/variants-study, reports/bots, reports/ladder, reports/search
#                                  the new files, copied in place
#   runs/sample, runs/variants     the study folders (gitignored). They stay under the repo on
#                                  purpose: the study writes its absolute --out path into
#                                  report.md ("Produced by: ... --out <repo>/runs/sample"),
#                                  report.html and study_manifest.json; any other folder would
#                                  change that line in the committed reports. RUNS=... overrides.
# Nothing is committed. Timings (kutsch-sim bench, host_scaling.py, bot_cost.py, wall times) are not
# seeded and are not remade here.
set -euo pipefail

REVAL=${REVAL:-runs/remeasure}
OUT=$REVAL/out
LOG=$REVAL/log.txt
RUNS=${RUNS:-runs}
PY=${PY:-python}

# --- checks: the repo root, and the kutsch_sim that python imports is this checkout's ---
if [[ ! -f pyproject.toml || ! -d kutsch_sim || ! -f scripts/analyse/bots_eval.py ]]; then
  echo "remeasure.sh: run me from the repo root" >&2
  exit 2
fi
# (from scripts/, as `python scripts/<group>/x.py` and kutsch-sim see it, not the cwd's copy)
pkg=$(cd scripts && "$PY" -c 'import kutsch_sim, os; print(os.path.dirname(os.path.abspath(kutsch_sim.__file__)))')
if [[ "$pkg" != "$PWD/kutsch_sim" ]]; then
  echo "remeasure.sh: python imports kutsch_sim from $pkg, not from $PWD/kutsch_sim (pip install -e . first)" >&2
  exit 2
fi
command -v kutsch-sim >/dev/null || { echo "remeasure.sh: kutsch-sim is not on PATH" >&2; exit 2; }

mkdir -p "$OUT"

log() { echo "$(date '+%Y-%m-%d %H:%M:%S') $*" | tee -a "$LOG"; }

# A failing command inside a step ends the script (set -e); the EXIT trap logs which step.
CUR=""
T0=0
trap 'rc=$?; if [[ -n "$CUR" ]]; then log "end   $CUR: FAILED (exit $rc) after $(( $(date +%s) - T0 )) s; see $OUT/$CUR.err"; fi' EXIT

run_step() {
  CUR=$1
  T0=$(date +%s)
  log "start $CUR"
  "step_$CUR" >"$OUT/$CUR.out" 2>"$OUT/$CUR.err"
  log "end   $CUR: ok, $(( $(date +%s) - T0 )) s"
  CUR=""
}

# runs/<x>/report/{figures,tables,report.md,report.html} -> reports/<x>-study/,
# runs/<x>/results/_manifest.json (the study manifest) -> reports/<x>-study/study_manifest.json
copy_study() {
  local run=$1 dest=$2
  local f
  for f in "$run/report/report.md" "$run/report/report.html" "$run/results/_manifest.json"; do
    [[ -f "$f" ]] || { echo "copy_study: $f is missing" >&2; return 1; }
  done
  rm -rf "$dest/figures" "$dest/tables"
  cp -r "$run/report/figures" "$dest/figures"
  cp -r "$run/report/tables" "$dest/tables"
  cp "$run/report/report.md" "$run/report/report.html" "$dest/"
  cp "$run/results/_manifest.json" "$dest/study_manifest.json"
}

# ============================ core steps ============================

# 1. The standard study at 14,100 games a configuration (1,001,100 smart games) -> reports/sample-study.
#    Feeds README.md (the headline figure and findings) and docs/bots.md (what the sample study
#    shows of the bots). The manifest records the command as
#    `kutsch-sim study --games 14100 --seed 2026 --bots smart --out <repo>/runs/sample`.
#    First on purpose: if the engine's sources changed, it compiles here (about 3 minutes).
step_sample() {
  kutsch-sim study --games 14100 --seed 2026 --out "$RUNS/sample" --force
  copy_study "$RUNS/sample" reports/sample-study
}

# 2. scripts/analyse/bots_eval.py with its defaults (200,000 head-to-head games at 6p, seed 11; symmetry
#    1,000,000 at 6p and 100,000 at 4/8/10, seed 21; 100,000 at odd counts, seed 31; full 4/6/9,
#    seed 41; 2 threads) -> reports/bots/bots_eval.md (its stdout) and bots_eval.json.
#    Feeds docs/bots.md (skill, mirror symmetry, game length, timeouts, wrong declarations).
step_bots_eval() {
  "$PY" scripts/analyse/bots_eval.py --json "$OUT/bots_eval.json" >"$OUT/bots_eval.md"
  cp "$OUT/bots_eval.md" "$OUT/bots_eval.json" reports/bots/
}

# 3. The variants study (2,000 games a configuration, 178,000 games) -> reports/variants-study.
#    Feeds docs/usage.md (what each R10 variant changes). The manifest records `--variants all`
#    expanded to smuggling,fortune-telling,advanced-3p.
step_variants() {
  kutsch-sim study --games 2000 --seed 2026 --variants all --out "$RUNS/variants" --force
  copy_study "$RUNS/variants" reports/variants-study
}

# 4. Calibration at the decision: smart and smart-v2, 3-10 players, basic and full, 40,000 games
#    each, seed 2034 (M_ITEM and M_WAIT were fitted on seeds 2031-2033, the surfaces and the team
#    and Drink maps on 2043-2046) -> reports/bots/calibration (the report of `kutsch-sim calibration`, without its
#    claims). Feeds docs/calibration.md, docs/bots.md and README.md. About 8 minutes.
step_calibration() {
  kutsch-sim calibration --players 3-10 --items basic,full --bots smart,smart-v2 --games 40000 --seed 2034 \
    --out "$RUNS/cal" --force
  rm -rf reports/bots/calibration && cp -r "$RUNS/cal/report" reports/bots/calibration
}

# 4a. End-of-game team beliefs against the truth, 3-10 players, 1,000 games each (defaults: --items
#     full --seed 99) -> reports/bots/belief_calibration.md (its stdout). Feeds docs/bots.md.
step_end_beliefs() {
  "$PY" scripts/analyse/belief_calibration.py --players 3-10 --games 1000 >"$OUT/belief_calibration.md"
  cp "$OUT/belief_calibration.md" reports/bots/belief_calibration.md
}

# 4b. The search's claims: search-m on every seat, 5, 6 and 9 players, basic, measured on 10,000
#     games a count (seed 2040) -> reports/search/calibration. Feeds docs/calibration.md and
#     docs/search.md. About 15 minutes on 2 cores. The code's M_SEARCH was fitted on seeds 2039
#     and 2041 (2,000 and 3,000 games a count) at b1c7bf2. To fit it again (a new build; it changes
#     no game, only what the search states):
#       kutsch-sim calibration --players 5,6,9 --items basic --bots search-m --games 2000 --seed 2039 --out runs/cal-search-fit-a
#       kutsch-sim calibration --players 5,6,9 --items basic --bots search-m --games 3000 --seed 2041 --out runs/cal-search-fit-b
#       python scripts/dev/fit_beliefs.py search runs/cal-search-fit-a,runs/cal-search-fit-b --profile search-m
#     Refitted so on the games of 36a99e5, it missed the top bin at 5 players on seed 2040, which
#     the older map holds (docs/calibration.md#what-the-search-states), so the code keeps that one.
step_search_calibration() {
  kutsch-sim calibration --players 5,6,9 --items basic --bots search-m --games 10000 --seed 2040 \
    --out "$RUNS/cal-search" --force
  rm -rf reports/search/calibration && cp -r "$RUNS/cal-search/report" reports/search/calibration
}

step_smart_vs_v2() {
  "$PY" scripts/analyse/duel.py --a smart --b smart-v2 --players 4,5,6,8,9 --items basic,full --games 20000 \
    --seed 7 --json reports/bots/smart_vs_v2.json >reports/bots/smart_vs_v2.md
}

# 5. Decision checks, 1,000 games at 3-8 players (default --seed 11, smart, full).
#    Feeds docs/bots.md (Decision checks: Drink declarations, Mixer uses, Duelist decisions and
#    their wrong ones). Not kept under reports/: copy the table into docs/bots.md by hand.
step_decision_checks() {
  "$PY" scripts/reproduce/decision_checks.py --games 1000 >"$OUT/decision_checks.md"
}

# 6. Hand-limit give-aways, 3-6 players (defaults: 300 games, seed 7, smart), --items full.
#    Feeds docs/bots.md (Hand-limit give-aways, the columns of the current policy). Not kept
#    under reports/.
step_limit_gifts() {
  : >"$OUT/limit_gifts.txt"
  for n in 3 4 5 6; do
    "$PY" scripts/reproduce/limit_gifts.py --players "$n" --items full >>"$OUT/limit_gifts.txt"
  done
}

# 7. Wrong declarations as a share of declarations, 100,000 smart games each, seed 2026, 5/6/7
#    players basic and 6 players full. Feeds docs/bots.md (wrong declarations by count). The
#    same games as `kutsch-sim simulate --players N --items I --games 100000 --seed 2026` (a game
#    depends only on seed, configuration and game index); the share as bots_eval.py counts it.
step_wrong_decl() {
  "$PY" - >"$OUT/wrong_decl.md" <<'EOF'
import numba
from kutsch_sim.api import GameConfig, run_batch
from kutsch_sim.enums import REC

numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
print("| players | items | games | declarations | wrong | wrong, of declarations |")
print("|---:|---|---:|---:|---:|---:|")
for n, items in ((5, "basic"), (6, "basic"), (6, "full"), (7, "basic")):
    rec = run_batch(GameConfig(n, items, ("smart",)), 2026, 0, 100_000)
    decl = rec[:, REC.DECLARER] >= 0
    wrong = decl & (rec[:, REC.DECL_OK] == 0)
    print(f"| {n} | {items} | {len(rec):,} | {int(decl.sum()):,} | {int(wrong.sum()):,} | "
          f"{100 * wrong.sum() / max(1, decl.sum()):.2f}% |", flush=True)
EOF
}

# 8. The variants beside the base game (defaults: 2,000 games a row, full, smart, seed 1; 200 traced
#    smuggling games). docs/usage.md names the script but quotes none of its figures: a sanity
#    check (read it for oddities), not kept under reports/.
step_variants_sanity() {
  "$PY" scripts/analyse/variants_sanity.py >"$OUT/variants_sanity.md"
}

# ============================ extras (`all`, or by name) ============================

# 9. soft_trust duels (smart with another soft_trust against smart, full, seed 11). Feeds
#    docs/bots.md, which says at which commit they were measured: remake them only if the text is
#    to speak of the current bots. The first command is the one docs/bots.md quotes; the others
#    make its other rows (0.35 at 10 players; 0.7 at 4/6/8/10 and 1.0 at 10 with 40,000 games).
step_soft_trust() {
  "$PY" scripts/analyse/soft_trust_duel.py --trust 0.25 >"$OUT/soft_trust_0.25.txt"
  "$PY" scripts/analyse/soft_trust_duel.py --trust 0.35 --players 10 >"$OUT/soft_trust_0.35.txt"
  "$PY" scripts/analyse/soft_trust_duel.py --trust 0.7 --players 4,6,8,10 --games 40000 >"$OUT/soft_trust_0.7.txt"
  "$PY" scripts/analyse/soft_trust_duel.py --trust 1.0 --players 10 --games 40000 >"$OUT/soft_trust_1.0.txt"
}

# 10. Cycle counters of an instrumented copy (defaults: 6 players, full, smart, 4,000 games, seed 3;
#     compiles its own copy, ~3 min). Feeds only the counts in docs/performance.md (788 trade and
#     attack scores a game); its shares and cycles are timings.
step_cycle_profile() {
  "$PY" scripts/dev/cycle_profile.py >"$OUT/cycle_profile.md"
}

# 11. The skill ladder (random, greedy, smart-v2, smart, search-s, search-m; 3, 5, 6, 9 players x
#     basic, basic+Loge, and basic with the Drink off at 3, 5, 9; 2,000 games a cell, seed 2026) ->
#     reports/ladder. Feeds README.md (its headline) and docs/ladder.md. About 15 minutes on 2
#     cores (Intel Xeon), most of it the search rungs; `--resume` finishes an interrupted one.
step_ladder() {
  kutsch-sim ladder --seed 2026 --out "$RUNS/ladder" --force
  copy_study "$RUNS/ladder" reports/ladder
}

# 12. The search profiles against smart, and search-l against search-m: pure-team games at 6
#     players, full, seed 7, 2,000 deals -> reports/search/*.json, and one decision's cost ->
#     reports/search/cost-6p-full.json. Feeds docs/search.md and docs/ladder.md (the ladder's
#     order). About an hour on 2 cores, most of it the whole-game search-m24 and search-m-full.
#     The value table the cut rollouts read (search/value_table.py) is remade by
#     `python scripts/dev/fit_value.py --games 20000 --seed 4041` (3 minutes; a new build, and new
#     games for every cut profile).
step_search() {
  local p
  for p in search-s search-m search-m-full search-m24; do
    "$PY" scripts/analyse/duel.py --a $p --b smart --players 6 --items full --games 2000 --seed 7 \
      --json reports/search/${p}_vs_smart.json >"$OUT/${p}_vs_smart.md"
  done
  "$PY" scripts/analyse/duel.py --a search-l --b search-m --players 6 --items full --games 2000 --seed 7 \
    --json reports/search/search-l_vs_search-m.json >"$OUT/search-l_vs_search-m.md"
  "$PY" scripts/analyse/search_cost.py --bots "search-s;search-m;search-l;search-s-full;search-m-full;search-m24" \
    --games 30 --repeats 3 --json reports/search/cost-6p-full.json >"$OUT/search_cost.md"
}

# 13. What would make it fair: the smaller team at 3, 5, 7 and 9 players (and at 3 and 5 keeping the
#     Loge's solo wins at 30% or less, with more deals at the stronger rung), and the Loge's solo wins
#     at 3-10 (kutsch-sim balance, seed 2026; the stronger rung search-s) -> reports/balance/. Feeds
#     docs/balance.md and the README. About an hour.
copy_balance() {
  local run=$1 dest=$2
  [[ -f "$run/balance.html" ]] || { echo "copy_balance: $run/balance.html is missing" >&2; return 1; }
  rm -rf "$dest"
  mkdir -p "$dest"
  cp -r "$run/figures" "$run/tables" "$run/balance.md" "$run/balance.html" "$run/balance.json" "$dest/"
}
step_balance() {
  kutsch-sim balance --players 3,5,7,9 --target smaller=50 --seed 2026 --games 10000 --strong-games 600 \
    --out "$RUNS/balance-smaller" $( [[ -d "$RUNS/balance-smaller" ]] && echo --resume )
  copy_balance "$RUNS/balance-smaller" reports/balance/smaller
  kutsch-sim balance --players 3,5 --target smaller=50 --keep 'loge<=30' --seed 2026 --games 10000 \
    --strong-games 2000 --out "$RUNS/balance-smaller-3-5" $( [[ -d "$RUNS/balance-smaller-3-5" ]] && echo --resume )
  copy_balance "$RUNS/balance-smaller-3-5" reports/balance/smaller-3-5
  kutsch-sim balance --players 3-10 --target 'loge<=10' --seed 2026 --trials 30 --check 2 --strong-games 200 \
    --out "$RUNS/balance-loge" $( [[ -d "$RUNS/balance-loge" ]] && echo --resume )
  copy_balance "$RUNS/balance-loge" reports/balance/loge
}

CORE=(sample bots_eval variants calibration end_beliefs smart_vs_v2 decision_checks limit_gifts wrong_decl variants_sanity)
EXTRA=(soft_trust cycle_profile ladder search search_calibration balance)

if [[ $# -eq 0 ]]; then
  steps=("${CORE[@]}")
elif [[ $# -eq 1 && $1 == all ]]; then
  steps=("${CORE[@]}" "${EXTRA[@]}")
else
  steps=("$@")
fi
for s in "${steps[@]}"; do
  declare -F "step_$s" >/dev/null || { echo "remeasure.sh: no step '$s' (steps: ${CORE[*]} ${EXTRA[*]})" >&2; exit 2; }
done

# Before any step: keep the reports as they are now, for compare_reports.py (never overwritten, so a second
# run of some steps still compares with the reports of before the first run).
if [[ ! -d "$REVAL/old_reports" ]]; then
  cp -r reports "$REVAL/old_reports"
  log "copied reports/ to $REVAL/old_reports"
fi

head=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
git diff --quiet HEAD -- kutsch_sim data scripts 2>/dev/null || head="$head + uncommitted changes in kutsch_sim/data/scripts"
log "remeasure.sh: steps ${steps[*]} at $head"
for s in "${steps[@]}"; do
  run_step "$s"
done
log "remeasure.sh: done. Next: python scripts/analyse/compare_reports.py; update the figures in README.md and docs/; git diff --stat reports"
