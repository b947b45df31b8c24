#!/usr/bin/env python3
"""Render the measured-performance tables of the documentation from the
committed JSON lines under bench/measured/ (standard library only).

    python3 bench/render_performance.py           # rewrite the generated regions
    python3 bench/render_performance.py --check   # exit 1 if a region is stale

Every figure the documentation quotes about speed comes from these files, so
the tables are never typed by hand: each generated region lies between the
markers

    <!-- BEGIN GENERATED: <name> (bench/render_performance.py) -->
    <!-- END GENERATED: <name> -->

in docs/performance.md ("measured") and README.md ("headline"). --check is
the CTest test docs_performance_tables: it fails when a committed table does
not match what the committed measurements give (a hand-edited figure, or a
new file under bench/measured/ whose tables were not regenerated).

A measurement file is named <date>_<machine>_<commit>[_<tag>].jsonl: the day
it was measured, a short name of the machine and the commit of the code that
was measured (bench/measured/README.md). Its lines are what the benchmarks
print (bench/json_line.hpp); a line with "reconstructed_from" was typed back
from an older table rather than printed by a benchmark, and the page says so.
"""

import argparse
import json
import math
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEASURED = os.path.join(ROOT, "bench", "measured")
FILE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})_([a-z0-9-]+)_([0-9a-f]{7,40})(?:_([a-z0-9-]+))?\.jsonl$")
LATTE_BACKENDS = ("cpu", "simt", "cuda")

# Row order and names of the kernels; others follow alphabetically under their bench name.
KERNELS = [
    ("axpy", "axpy `z = a x + y`"),
    ("norm2_spinor", "`norm2` of a spinor field"),
    ("inner_product_complex", "`innerProduct` of complex fields"),
    ("sum_real", "`sum` of a real field"),
    ("wilson_dslash", "Wilson Dslash"),
    ("wilson_dslash_even_odd", "Wilson Dslash, checkerboard (odd to even)"),
    ("cg_iteration", "CG iteration (M^+M)"),
    ("lbm_d2q9_bgk", "D2Q9 BGK stream-collide"),
    ("lbm_d3q19_bgk", "D3Q19 BGK stream-collide"),
    ("lbm_d3q27_bgk", "D3Q27 BGK stream-collide"),
]
KERNEL_NAMES = dict(KERNELS)
KERNEL_ORDER = [k for k, _ in KERNELS]

# The kernels the README's headline line quotes.
HEADLINE_KERNELS = ["wilson_dslash", "lbm_d3q19_bgk"]


# ---- reading ----------------------------------------------------------------------

class MeasurementFile:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        match = FILE_NAME.match(self.name)
        if not match:
            raise ValueError("%s: a measurement file is named <date>_<machine>_<commit>[_<tag>].jsonl "
                             "(e.g. 2026-11-24_zen5-2core-vm_057218c_scaling.jsonl)" % path)
        self.date, self.machine, self.commit, self.tag = match.groups()
        self.shares_day = False  # another file has this machine and day (read_measurements)
        self.lines = []
        with open(path) as f:
            for number, text in enumerate(f, 1):
                text = text.strip()
                if not text:
                    continue
                try:
                    line = json.loads(text)
                except json.JSONDecodeError as error:
                    raise ValueError("%s, line %d: not JSON (%s)" % (path, number, error))
                if not isinstance(line, dict) or "bench" not in line:
                    raise ValueError("%s, line %d: a measurement is a JSON object with a \"bench\" name" % (path, number))
                self.lines.append(line)
        devices = sorted({l["device"] for l in self.lines if l.get("device")})
        self.device = ", ".join(devices)
        sources = sorted({l["reconstructed_from"] for l in self.lines if l.get("reconstructed_from")})
        self.reconstructed_from = "; ".join(sources)

    def label(self):
        # The tag tells apart two files of one machine and day.
        tag = ", " + self.tag if self.tag and self.shares_day else ""
        return "%s (%s%s)" % (self.device or self.machine, self.date, tag)

    def latte_lines(self):
        return [l for l in self.lines if l.get("backend") in LATTE_BACKENDS and not l["bench"].endswith("_yardstick")]


def read_measurements(directory):
    """The measurement files, oldest first; machines.json names the machines
    whose lines carry no "device"."""
    names = sorted(n for n in os.listdir(directory) if n.endswith(".jsonl"))
    measurements = [MeasurementFile(os.path.join(directory, n)) for n in names]
    machines_path = os.path.join(directory, "machines.json")
    machines = {}
    if os.path.exists(machines_path):
        with open(machines_path) as f:
            machines = json.load(f)
    for measurement in measurements:
        if not measurement.device:
            measurement.device = machines.get(measurement.machine, "")
    for measurement in measurements:
        measurement.shares_day = sum(m.machine == measurement.machine and m.date == measurement.date
                                     for m in measurements) > 1
    return measurements


# ---- formatting -------------------------------------------------------------------

def finite(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def fixed(value, digits=2):
    return ("%.*f" % (digits, value)).replace("-", "−") if finite(value) else "–"


def rate(value):
    """GB/s or GFLOPS: three significant figures, at least one decimal below 100."""
    if not finite(value) or value <= 0:
        return "–"
    return "%.0f" % value if value >= 100 else "%.1f" % value


def count(value):
    return "{:,}".format(int(round(value))) if finite(value) else "–"


def lattice_name(lattice):
    if not lattice:
        return "–"
    if len(lattice) > 1 and len(set(lattice)) == 1:
        return "%d^%d" % (lattice[0], len(lattice))
    return "x".join(str(n) for n in lattice)


def grid_name(grid):
    return "[%s]" % " ".join(str(n) for n in grid) if grid else "–"


def kernel_name(bench):
    return KERNEL_NAMES.get(bench, "`%s`" % bench)


def kernel_sort_key(line):
    bench = line["bench"]
    order = KERNEL_ORDER.index(bench) if bench in KERNEL_ORDER else len(KERNEL_ORDER)
    lattice = line.get("lattice") or []
    return (order, bench, 0 if line.get("precision") == "double" else 1, math.prod(lattice) if lattice else 0)


def anchor(text):
    """The anchor a Git host gives a heading."""
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


# ---- the tables -------------------------------------------------------------------

def one_rank_kernels(measurement):
    """Latte's single-rank lines, the fastest of repeated runs of one kernel
    (bench, precision, lattice), as each benchmark reports its best."""
    best = {}
    for line in measurement.latte_lines():
        if line.get("ranks", 1) != 1:
            continue
        key = (line["bench"], line.get("precision"), tuple(line.get("lattice") or []))
        fraction = line.get("fraction_of_stream")
        if key not in best or (finite(fraction) and fraction > (best[key].get("fraction_of_stream") or 0)):
            best[key] = line
    return sorted(best.values(), key=kernel_sort_key)


def kernel_table(measurement):
    rows = ["| kernel | precision | lattice | fraction of STREAM | GB/s (model) | GFLOPS | ms per call |",
            "|---|---|---|---|---|---|---|"]
    for line in one_rank_kernels(measurement):
        seconds = line.get("seconds")
        rows.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            kernel_name(line["bench"]), line.get("precision", "–"), lattice_name(line.get("lattice")),
            fixed(line.get("fraction_of_stream")), rate(line.get("gbytes_per_s")), rate(line.get("gflops")),
            fixed(seconds * 1e3) if finite(seconds) else "–"))
    return rows


def scaling_table(measurement):
    lines = [l for l in measurement.latte_lines() if "scaling" in l and "process_grid" in l]
    if not any(l.get("ranks", 1) > 1 for l in lines):
        return []
    lines.sort(key=lambda l: (l.get("scaling") != "strong", kernel_sort_key(l), l.get("ranks", 1)))
    rows = ["| kernel | scaling | ranks | process grid | lattice | ms per call | halo bytes per call (model) "
            "| communication ms | overlap efficiency |",
            "|---|---|---|---|---|---|---|---|---|"]
    for line in lines:
        ranks = line.get("ranks", 1)
        halo, model = line.get("halo_bytes_per_call"), line.get("halo_bytes_per_call_model")
        halo_text = count(halo) if halo == model else "%s (%s)" % (count(halo), count(model))
        rows.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s |" % (
            kernel_name(line["bench"]), line.get("scaling"), ranks, grid_name(line.get("process_grid")),
            lattice_name(line.get("lattice")), fixed(line["seconds"] * 1e3),
            halo_text if ranks > 1 else "–",
            fixed(line.get("communication_seconds_per_call", 0) * 1e3) if ranks > 1 else "–",
            fixed(line.get("overlap_efficiency")) if ranks > 1 else "–"))
    return rows


def compile_table(measurement):
    """The builds of bench/compile_time.sh, one row per commit, in the
    order they ran (two commits back to back are one comparison)."""
    lines = [l for l in measurement.lines if l["bench"] == "compile_whole"]
    if not lines:
        return []
    rows = ["| commit | translation units | jobs | wall s | compiler CPU s | largest compiler memory (GiB) |",
            "|---|---|---|---|---|---|"]
    for line in lines:
        rows.append("| `%s` | %d | %d | %s | %s | %s |" % (
            line["commit"], line["files"], line["jobs"], fixed(line["wall_s"], 1), fixed(line["cpu_s"], 1),
            fixed(line["largest_compiler_memory_kb"] / 2**20)))
    return rows


def stream_summary(measurement):
    triads = [l.get("stream_triad_gbytes_per_s") for l in measurement.lines
              if l["bench"] == "stream_triad" and finite(l.get("stream_triad_gbytes_per_s"))]
    if not triads:
        return "no STREAM triad line"
    low, high = min(triads), max(triads)
    span = rate(low) if low == high else "%s–%s" % (rate(low), rate(high))
    return "STREAM triad %s GB/s (%d line%s)" % (span, len(triads), "" if len(triads) == 1 else "s")


def provenance(measurement):
    if measurement.reconstructed_from:
        return ("**Reconstructed, not raw output**: these lines were typed back from a table "
                "(%s) after the run; the fractions of STREAM are the table's, the GB/s and "
                "GFLOPS are derived from them and the traffic models, and no times were kept."
                % measurement.reconstructed_from)
    return "Raw benchmark output, as printed."


def headline_table(measurements):
    """Per kernel and precision, the best fraction of STREAM each machine's
    single-rank lines reached, with the lattice it was reached on."""
    columns = [m for m in measurements if one_rank_kernels(m)]
    best = {}
    for column, measurement in enumerate(columns):
        for line in one_rank_kernels(measurement):
            key = (line["bench"], line.get("precision"))
            cell = best.setdefault(key, {})
            fraction = line.get("fraction_of_stream")
            if finite(fraction) and (column not in cell or fraction > cell[column].get("fraction_of_stream")):
                cell[column] = line
    header = "| kernel | precision | " + " | ".join(
        "[%s](#%s)" % (m.label(), anchor(m.name)) for m in columns) + " |"
    rows = [header, "|---|---|" + "---|" * len(columns)]
    for (bench, precision), cell in sorted(best.items(), key=lambda item: kernel_sort_key(
            {"bench": item[0][0], "precision": item[0][1]})):
        cells = []
        for column in range(len(columns)):
            line = cell.get(column)
            cells.append("%s (%s)" % (fixed(line["fraction_of_stream"]), lattice_name(line.get("lattice")))
                         if line else "–")
        rows.append("| %s | %s | %s |" % (kernel_name(bench), precision, " | ".join(cells)))
    return rows


def measured_region(measurements):
    out = ["### Best fraction of STREAM per kernel and machine", "",
           "Single-rank lines; the lattice where the best was reached in brackets. "
           "Each column links to its file's section below.", ""]
    out += headline_table(measurements)
    for measurement in measurements:
        out += ["", "### %s" % measurement.name, "",
                "- measured: %s, on %s; code at commit `%s`%s" % (
                    measurement.date, measurement.device or measurement.machine, measurement.commit,
                    ", tag `%s`" % measurement.tag if measurement.tag else ""),
                "- %s" % stream_summary(measurement),
                "- %s" % provenance(measurement)] + [
                "- model conversion: %s" % text for text in
                sorted({l["model_conversion"] for l in measurement.lines if l.get("model_conversion")})] + [
                "- file: [`bench/measured/%s`](../bench/measured/%s)" % (measurement.name, measurement.name), ""]
        compile_rows = compile_table(measurement)
        if compile_rows:
            out += ["Native builds from scratch (`bench/compile_time.sh`: the whole build, or the targets "
                    "bench/measured/README.md names for the file); the file's `compile_file` lines give "
                    "each translation unit:", ""] + compile_rows
        if one_rank_kernels(measurement) or not compile_rows:
            out += kernel_table(measurement)
        scaling = scaling_table(measurement)
        if scaling:
            out += ["", "Across ranks (halo bytes are the model's where no model is bracketed):", ""] + scaling
    return out


def headline_region(measurements):
    parts = []
    for bench in HEADLINE_KERNELS:
        figures = []
        for measurement in measurements:
            fractions = [l["fraction_of_stream"] for l in one_rank_kernels(measurement)
                         if l["bench"] == bench and finite(l.get("fraction_of_stream"))]
            if fractions:
                low, high = min(fractions), max(fractions)
                span = fixed(low) if fixed(low) == fixed(high) else "%s–%s" % (fixed(low), fixed(high))
                label = measurement.label()
                if measurement.reconstructed_from:
                    label = label[:-1] + ", reconstructed from a table)"
                figures.append("%s on %s" % (span, label))
        if figures:
            parts.append("%s %s" % (kernel_name(bench), ", ".join(figures)))
    return ["Measured, as a fraction of a STREAM triad on the same machine: " + "; ".join(parts) +
            " ([every kernel on every machine](docs/performance.md#best-fraction-of-stream-per-kernel-and-machine))."]


REGIONS = {
    "measured": ("docs/performance.md", measured_region),
    "headline": ("README.md", headline_region),
}


# ---- rewriting the regions --------------------------------------------------------

def replace_region(text, name, body, path):
    begin = "<!-- BEGIN GENERATED: %s (bench/render_performance.py) -->" % name
    end = "<!-- END GENERATED: %s -->" % name
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise ValueError("%s: no region between '%s' and '%s'" % (path, begin, end))
    return text[: start + len(begin)] + "\n" + "\n".join(body) + "\n" + text[stop:]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a region is stale")
    parser.add_argument("--root", default=ROOT, help="repository root (default: this script's)")
    arguments = parser.parse_args(argv)
    try:
        measurements = read_measurements(os.path.join(arguments.root, "bench", "measured"))
        stale = []
        for name, (relative, render) in REGIONS.items():
            path = os.path.join(arguments.root, relative)
            with open(path) as f:
                text = f.read()
            updated = replace_region(text, name, render(measurements), path)
            if updated == text:
                continue
            if arguments.check:
                stale.append(relative)
                old, new = text.splitlines(), updated.splitlines()
                for number, (a, b) in enumerate(zip(old, new), 1):
                    if a != b:
                        print("%s:%d: committed:  %s\n%s:%d: measured:   %s" % (relative, number, a, relative, number, b))
                        break
                else:
                    print("%s: the generated region has %d lines, the measurements give %d"
                          % (relative, len(old), len(new)))
            else:
                with open(path, "w") as f:
                    f.write(updated)
                print("rewrote the '%s' region of %s" % (name, relative))
    except (OSError, ValueError) as error:
        print("render_performance: %s" % error, file=sys.stderr)
        return 2
    if stale:
        print("the performance tables of %s do not match bench/measured/; "
              "run python3 bench/render_performance.py and commit the result" % ", ".join(stale))
        return 1
    if arguments.check:
        print("the performance tables match bench/measured/ (%d files)" % len(measurements))
    return 0


if __name__ == "__main__":
    sys.exit(main())
