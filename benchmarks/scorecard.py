"""The speed issues' targets (#13, #44) as records, so that one command can say which are met on this machine.

Each benchmark calls `record(...)` beside the line where it prints a figure that has a target. With
NLUKIT_SCORECARD=FILE in the environment (benchmarks/portable_speed.py sets it) the record is appended
to FILE as one JSON line; without it `record` does nothing, so every script runs as before on its own.

    import scorecard
    scorecard.record("qa", "forward 384 tokens vs faster of ONNX Runtime/OpenVINO", ratio, "<=", 0.9, level="avx2")
    scorecard.record("qa", "forward 384 tokens, % of the level's FMA peak", share, ">=", 90, unit="%", issue=44)
"""
import json
import os

VARIABLE = "NLUKIT_SCORECARD"


def record(benchmark, figure, value, comparison, target, level=None, unit="x", issue=13):
    """One figure against its target: `comparison` is "<=" (lower is better) or ">=" (higher is better);
    `issue` is the speed issue that sets the target."""
    if comparison not in ("<=", ">="):
        raise ValueError(f"scorecard comparison {comparison!r}: expected '<=' or '>='")
    path = os.environ.get(VARIABLE)
    if not path:
        return
    met = value <= target if comparison == "<=" else value >= target
    line = json.dumps({"issue": issue, "benchmark": benchmark, "figure": figure, "level": level or os.environ.get("NLUKIT_CPU_LEVEL"),
                       "value": value, "comparison": comparison, "target": target, "unit": unit, "met": met})
    with open(path, "a") as f:  # one short write per line: the scripts run one after another
        f.write(line + "\n")


def read(path):
    """The records written to `path`, in order."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def table(records):
    """The records as aligned text lines, by issue: issue, benchmark, level, figure, value, target, met or MISSED."""
    lines = [f"{'issue':<7}{'benchmark':<11}{'level':<9}{'figure':<62}{'value':>9}  {'target':<9}result"]
    for r in sorted(records, key=lambda r: r.get("issue", 13)):  # stable: each issue's records keep their order
        # Three decimals for ratios: a 0.901x that misses 0.9 must not print as 0.90x.
        value = f"{r['value']:.3f}{r['unit']}" if r["unit"] == "x" else f"{r['value']:.1f}{r['unit']}"
        target = f"{r['comparison']} {r['target']:g}{r['unit']}"
        lines.append(f"{'#' + str(r.get('issue', 13)):<7}{r['benchmark']:<11}{(r['level'] or 'best'):<9}{r['figure'][:61]:<62}{value:>9}  {target:<9}"
                     f"{'met' if r['met'] else 'MISSED'}")
    return lines
