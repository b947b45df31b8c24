#!/usr/bin/env python3
"""Performance portability of Latte's kernels over platforms: the metric of
Pennycook, Sewall and Lee ("Implications of a metric for performance
portability", Future Generation Computer Systems, 2019), a Markdown table, a
JSON file with the same numbers and a roofline plot.

    python3 bench/portability_report.py \\
        --input scalar=out/scalar.jsonl --input avx2=out/avx2.jsonl \\
        --input native=out/native.jsonl --input simt=out/simt.jsonl \\
        --input h100=bench/measured/2026-11-22_h100-80gb-hbm3_e591316_reconstructed.jsonl \\
        --machine "this CPU=scalar,avx2,native,simt" \\
        --set cpu_widths=scalar,avx2,native --set cpu_and_simt=native,simt \\
        --out out/
    python3 bench/portability_report.py --self-test

Inputs are the JSON lines the benchmarks print (bench/json_line.hpp), one
file per platform; a platform is a build configuration on a machine. A
kernel is a bench name, precision and lattice; the kernels are Latte's lines
(backend cpu, simt or cuda). For kernel k on platform p:

  architectural efficiency  fraction_of_stream of Latte's line, capped at 1
                            (the kernel's model bytes per second against the
                            STREAM triad measured beside it)
  application efficiency    best observed performance of k on p's machine
                            divided by Latte's on p (a ratio of times; where
                            a line has no time, of model bytes per second,
                            which is the same for the same kernel)
  Phi(set)                  |set| / sum over p in set of 1 / e_p: the
                            harmonic mean of the efficiencies, and 0 if any
                            platform of the set has no result for k

"Best observed on the machine" is the best of
  - Latte's own line for k on every platform of the same machine: the CPU
    widths (scalar, sse2, avx2, avx512, native) and the simt build are
    one CPU, so the fastest of them is a fair best for that CPU, and every
    width is judged against it (--machine names the groups; a platform
    named in no group is a machine of its own);
  - the competitor yardsticks of k from those platforms' files: the lines
    <kernel>_<variant>_yardstick whose variant is a real implementation of
    the same computation:
        plain_loop      axpy as the plainest OpenMP loop over the same memory
        plain_sum       a reduction as a plain OpenMP sum (not reproducible:
                        what Latte's reproducible sums are measured against)
        hand_written    Wilson Dslash as a hand-coded per-site SIMD loop
    Not competitors: access_pattern (Dslash's loads and stores without its
    arithmetic: a ceiling no Dslash can beat, kept in the JSON as such) and
    local_access (the same loads at the site itself, no stencil: neither a
    Dslash nor a ceiling of one). Other variants are ignored and listed.
A machine whose file holds only Latte's lines (e.g. the H100 figures
reconstructed from the README) has no competitor: its application
efficiency is 1 by construction, which the report says.

Where a file holds several lines of one kernel (repeated runs), the fastest
is used, as each benchmark reports the best of its repetitions. Lines marked
"contended" (other processes took over 10% of the CPUs) are used but marked
with * in the table.

Roofline: x = arithmetic intensity (flops per model byte = gflops /
gbytes_per_s), y = GFLOPS, one marker per kernel and platform; a line whose
kernel has no flop model (gflops 0: reductions, lattice Boltzmann without a
flop model) has no point, and the report lists it. Per machine the ceilings
are the best STREAM triad of its lines (stream_triad_gbytes_per_s) and the
peak of bench_peak_flops (lines "bench":"peak_flops", the best over the
machine's platforms per precision); a machine without a peak line gets the
bandwidth ceiling only, said so in the legend.
"""

import argparse
import json
import math
import os
import sys

# <kernel>_<variant>_yardstick: what each variant is (see the docstring).
YARDSTICK_ROLES = {
    "plain_loop": "competitor",
    "plain_sum": "competitor",
    "hand_written": "competitor",
    "access_pattern": "ceiling",
    "local_access": "not compared",
}
LATTE_BACKENDS = ("cpu", "simt", "cuda")
# Row order of the tables; other bench names follow alphabetically.
BENCH_ORDER = ["axpy", "norm2_spinor", "inner_product_complex", "sum_real", "wilson_dslash",
               "wilson_dslash_even_odd", "cg_iteration", "lbm_d2q9_bgk", "lbm_d3q19_bgk",
               "lbm_d2q9_trt", "lbm_d3q19_trt"]
VARIANT_LABELS = {"plain_loop": "plain loop", "plain_sum": "plain sum", "hand_written": "hand-written"}


# ---- reading --------------------------------------------------------------------

def read_lines(path):
    """The JSON objects of a file of JSON lines; other lines (a benchmark's
    messages) are skipped."""
    lines = []
    with open(path) as f:
        for text in f:
            text = text.strip()
            if not text.startswith("{"):
                continue
            try:
                line = json.loads(text)
            except json.JSONDecodeError:
                continue
            if isinstance(line, dict) and "bench" in line:
                lines.append(line)
    return lines


def classify(line):
    """(role, kernel bench name, yardstick variant) of one line. Roles:
    latte, competitor, ceiling, not compared, stream, peak, other."""
    bench = line["bench"]
    if bench == "stream_triad":
        return "stream", None, None
    if bench == "peak_flops":
        return "peak", None, None
    if bench.endswith("_yardstick"):
        stem = bench[: -len("_yardstick")]
        for variant, role in YARDSTICK_ROLES.items():
            if stem.endswith("_" + variant):
                return role, stem[: -len(variant) - 1], variant
        return "other", stem, None
    if line.get("backend") in LATTE_BACKENDS:
        return "latte", bench, None
    return "other", bench, None


def kernel_key(line, bench=None):
    return (bench or line["bench"], line.get("precision", ""), tuple(line.get("lattice") or []))


def kernel_sort_key(key):
    bench, precision, lattice = key
    order = BENCH_ORDER.index(bench) if bench in BENCH_ORDER else len(BENCH_ORDER)
    volume = math.prod(lattice) if lattice else 0
    return (order, bench, 0 if precision == "double" else 1, precision, volume, lattice)


def lattice_name(lattice):
    if not lattice:
        return "-"
    if len(lattice) > 1 and len(set(lattice)) == 1:
        return "%d^%d" % (lattice[0], len(lattice))
    return "x".join(str(n) for n in lattice)


def number(value):
    """A finite positive float, or None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0:
        return float(value)
    return None


# ---- the metric -----------------------------------------------------------------

def phi(efficiencies):
    """Pennycook, Sewall and Lee's P: the harmonic mean of the efficiencies,
    0 if any platform has none (None or 0) or the set is empty."""
    if not efficiencies or any(e is None or not e > 0 for e in efficiencies):
        return 0.0
    return len(efficiencies) / sum(1.0 / e for e in efficiencies)


def line_speed(line, by_seconds):
    """Higher is faster: 1/seconds, or the model bytes per second."""
    return 1.0 / number(line.get("seconds")) if by_seconds else number(line.get("gbytes_per_s"))


def fastest(lines):
    """The fastest of several lines of one kernel on one platform."""
    by_seconds = all(number(l.get("seconds")) for l in lines)
    usable = [l for l in lines if line_speed(l, by_seconds)]
    return max(usable, key=lambda l: line_speed(l, by_seconds)) if usable else None


def describe_line(line):
    """The figures of one line kept in the JSON output."""
    keys = ("bench", "backend", "simd", "simd_build", "seconds", "gflops", "gbytes_per_s",
            "stream_triad_gbytes_per_s", "fraction_of_stream", "threads", "ranks", "contended")
    return {k: line.get(k) for k in keys if k in line}


def analyse(platform_lines, sets, machines, files=None):
    """platform_lines: {platform: [line, ...]} in input order; sets: {name:
    [platform, ...]}; machines: {platform: machine}. Returns the report as
    one dict (what the JSON file holds)."""
    platforms = list(platform_lines)
    machine_of = {p: machines.get(p, p) for p in platforms}
    notes = []
    latte, competitors, ceilings = {}, {}, {}
    stream, peaks, ignored = {}, {}, {}
    for p in platforms:
        for line in platform_lines[p]:
            role, bench, variant = classify(line)
            m = machine_of[p]
            bandwidth = number(line.get("stream_triad_gbytes_per_s"))
            if bandwidth and role != "peak":
                stream.setdefault(m, []).append(bandwidth)
            if role == "latte":
                latte.setdefault(kernel_key(line), {}).setdefault(p, []).append(line)
            elif role == "competitor":
                competitors.setdefault(kernel_key(line, bench), {}).setdefault(p, []).append((variant, line))
            elif role == "ceiling":
                ceilings.setdefault(kernel_key(line, bench), {}).setdefault(p, []).append((variant, line))
            elif role == "peak":
                if number(line.get("gflops")):
                    peaks.setdefault(m, {}).setdefault(line.get("precision", "double"), []).append((p, line))
            elif role in ("other", "not compared"):
                ignored.setdefault(line["bench"], set()).add(p)
    for bench, where in sorted(ignored.items()):
        notes.append("not compared: %s (%s)" % (bench, ", ".join(sorted(where))))
    for key in competitors:
        if key not in latte:
            notes.append("a yardstick without Latte's kernel: %s %s %s" % (key[0], key[1], lattice_name(key[2])))

    kernels = []
    contended = []
    for key in sorted(latte, key=kernel_sort_key):
        entry = {"bench": key[0], "precision": key[1], "lattice": list(key[2]), "platforms": {},
                 "best_observed": {}, "ceilings": {}, "phi": {}}
        chosen = {}
        for p, lines in latte[key].items():
            line = fastest(lines)
            if line is None:
                # e.g. a CG iteration's time is the difference of two runs,
                # which a busy machine can make negative.
                notes.append("%s %s %s on %s: no line with a positive time or bandwidth, counted as missing" %
                             (key[0], key[1], lattice_name(key[2]), p))
                continue
            chosen[p] = line
            fraction = number(line.get("fraction_of_stream"))
            if fraction is None and number(line.get("gbytes_per_s")) and number(line.get("stream_triad_gbytes_per_s")):
                fraction = line["gbytes_per_s"] / line["stream_triad_gbytes_per_s"]
            entry["platforms"][p] = {
                "architectural_efficiency": min(fraction, 1.0) if fraction else None,
                "application_efficiency": None,
                "lines_of_this_kernel": len(lines),
                "latte": describe_line(line),
            }
            if line.get("contended"):
                contended.append("%s %s %s on %s" % (key[0], key[1], lattice_name(key[2]), p))
        # Application efficiency: against the best on the same machine.
        for m in sorted(set(machine_of[p] for p in chosen)):
            pool = [(p, "Latte", line) for p, line in chosen.items() if machine_of[p] == m]
            for p, pairs in competitors.get(key, {}).items():
                if machine_of[p] == m:
                    pool += [(p, VARIANT_LABELS.get(v, v) + " yardstick", line) for v, line in pairs]
            by_seconds = all(number(line.get("seconds")) for _, _, line in pool)
            if not by_seconds:
                models = set(line.get("bytes_per_site_model") for _, _, line in pool)
                if len(models) > 1:
                    notes.append("%s %s %s on %s: lines without seconds and with different byte models %s; "
                                 "compared by model bytes per second anyway" %
                                 (key[0], key[1], lattice_name(key[2]), m, sorted(map(str, models))))
            pool = [(p, what, line) for p, what, line in pool if line_speed(line, by_seconds)]
            if not pool:
                continue
            best_p, best_what, best_line = max(pool, key=lambda t: line_speed(t[2], by_seconds))
            best_speed = line_speed(best_line, by_seconds)
            entry["best_observed"][m] = {
                "platform": best_p, "implementation": best_what, "compared_by": "seconds" if by_seconds else
                "model bytes per second", "competitors_on_machine": sum(1 for _, w, _ in pool if w != "Latte"),
                "line": describe_line(best_line)}
            for p, what, line in pool:
                if what == "Latte":
                    entry["platforms"][p]["application_efficiency"] = line_speed(line, by_seconds) / best_speed
        for p, pairs in ceilings.get(key, {}).items():
            entry["ceilings"][p] = [{"variant": v, "line": describe_line(line)} for v, line in pairs]
        for name, members in sets.items():
            entry["phi"][name] = {
                kind: phi([entry["platforms"].get(p, {}).get(kind + "_efficiency") for p in members])
                for kind in ("architectural", "application")}
        kernels.append(entry)

    machine_report = {}
    for m in sorted(set(machine_of.values())):
        bandwidths = stream.get(m, [])
        report = {"platforms": [p for p in platforms if machine_of[p] == m],
                  "stream_triad_gbytes_per_s": max(bandwidths) if bandwidths else None,
                  "stream_triad_range_gbytes_per_s": [min(bandwidths), max(bandwidths)] if bandwidths else None,
                  "peak_gflops": {}, "peak_gflops_per_platform": {}}
        for precision, pairs in peaks.get(m, {}).items():
            best_p, best_line = max(pairs, key=lambda t: t[1]["gflops"])
            report["peak_gflops"][precision] = {"gflops": best_line["gflops"], "platform": best_p,
                                                "simd": best_line.get("simd"), "threads": best_line.get("threads")}
            for p, line in pairs:
                report["peak_gflops_per_platform"].setdefault(p, {})[precision] = {
                    "gflops": line["gflops"], "simd": line.get("simd"),
                    "fused_multiply_add": line.get("fused_multiply_add")}
        if not bandwidths:
            notes.append("machine %s: no STREAM triad figure, no bandwidth ceiling" % m)
        if not report["peak_gflops"]:
            notes.append("machine %s: no peak_flops line, the roofline has its bandwidth ceiling only" % m)
        no_competitor = [k for k in kernels if m in k["best_observed"]
                         and k["best_observed"][m]["competitors_on_machine"] == 0
                         and len([p for p in k["platforms"] if machine_of[p] == m]) == 1]
        if no_competitor and len(no_competitor) == sum(1 for k in kernels if m in k["best_observed"]):
            notes.append("machine %s: one platform and no competitor yardstick, so its application "
                         "efficiency is 1 by construction" % m)
        machine_report[m] = report
    for name, members in sets.items():
        for p in members:
            if p not in platform_lines:
                notes.append("set %s names platform %s, which has no input: its Phi is 0 everywhere" % (name, p))
    if contended:
        notes.append("contended lines (marked *; other processes took over 10%% of the CPUs): %d, %s" %
                     (len(contended), by_kernel(contended)))

    roofline_points, roofline_skipped = [], []
    for entry in kernels:
        for p, result in entry["platforms"].items():
            line = result["latte"]
            gflops, gbytes = number(line.get("gflops")), number(line.get("gbytes_per_s"))
            name = "%s %s %s on %s" % (entry["bench"], entry["precision"], lattice_name(entry["lattice"]), p)
            if not gflops or not gbytes:
                roofline_skipped.append(name + (" (0 flops: no flop model)" if not gflops else " (no bytes)"))
                continue
            roofline_points.append({"bench": entry["bench"], "precision": entry["precision"],
                                    "lattice": entry["lattice"], "platform": p, "machine": machine_of[p],
                                    "flops_per_byte": gflops / gbytes, "gflops": gflops})

    return {
        "metric": "Pennycook, Sewall, Lee, 'Implications of a metric for performance portability', FGCS 2019: "
                  "Phi = |H| / sum_{i in H} 1/e_i if every platform i of H has a result, else 0",
        "platforms": {p: {"machine": machine_of[p], "file": (files or {}).get(p)} for p in platforms},
        "machines": machine_report,
        "sets": {name: list(members) for name, members in sets.items()},
        "competitor_variants": sorted(v for v, r in YARDSTICK_ROLES.items() if r == "competitor"),
        "ceiling_variants": sorted(v for v, r in YARDSTICK_ROLES.items() if r == "ceiling"),
        "kernels": kernels,
        "roofline_points": roofline_points,
        "roofline_skipped": roofline_skipped,
        "notes": notes,
    }


# ---- Markdown -------------------------------------------------------------------

def short_path(path):
    """A file name relative to the current folder where it lies below it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def by_kernel(names):
    """'bench precision lattice on platform' strings, grouped: 'bench (n
    lines: platforms)'."""
    groups = {}
    for name in names:
        bench, rest = name.split(" ", 1)
        platform = rest.rsplit(" on ", 1)[-1].split(" (")[0]
        groups.setdefault(bench, []).append(platform)
    return "; ".join("%s (%d line%s: %s)" % (b, len(ps), "" if len(ps) == 1 else "s", ", ".join(dict.fromkeys(ps)))
                     for b, ps in groups.items())


def cell(value, mark=""):
    return "—" if value is None else "%.2f%s" % (value, mark)


def markdown(report):
    platforms = list(report["platforms"])
    sets = report["sets"]
    out = ["# Performance portability of Latte", ""]
    out.append("Platforms: " + "; ".join(
        "%s (machine %s%s)" % (p, info["machine"], ", " + short_path(info["file"]) if info.get("file") else "")
        for p, info in report["platforms"].items()) + ".")
    out.append("")
    out.append("Sets: " + "; ".join("%s = {%s}" % (n, ", ".join(m)) for n, m in sets.items()) + ".")
    out.append("")
    out.append("Φ(set) = |set| / Σ 1/e over the set's platforms (Pennycook, Sewall, Lee, FGCS 2019); "
               "0 where a platform of the set has no result. — : no result. * : contended line.")
    header = ["kernel", "precision", "lattice"] + platforms + ["Φ " + n for n in sets]
    for kind, title, extra in (
            ("architectural", "Architectural efficiency: fraction of STREAM triad, capped at 1", []),
            ("application", "Application efficiency: best observed time on the same machine / Latte's time",
             ["best observed"])):
        out += ["", "## " + title, "", "| " + " | ".join(header + extra) + " |",
                "|" + "---|" * (len(header) + len(extra))]
        for k in report["kernels"]:
            row = [k["bench"], k["precision"], lattice_name(k["lattice"])]
            for p in platforms:
                r = k["platforms"].get(p)
                row.append(cell(r and r[kind + "_efficiency"], "*" if r and r["latte"].get("contended") else ""))
            row += ["%.2f" % k["phi"][n][kind] for n in sets]
            if extra:
                row.append("; ".join("%s: %s (%s)" % (m, b["implementation"], b["platform"])
                                     for m, b in k["best_observed"].items()))
            out.append("| " + " | ".join(row) + " |")
    out += ["", "## Ceilings", "", "| machine | platforms | STREAM triad GB/s (best; range of the lines) | "
            "peak GFLOPS double | peak GFLOPS single |", "|---|---|---|---|---|"]
    for m, r in report["machines"].items():
        bw = r["stream_triad_gbytes_per_s"]
        bw_text = "—" if bw is None else "%.0f (%.0f–%.0f)" % (bw, *r["stream_triad_range_gbytes_per_s"])
        peak_text = []
        for precision in ("double", "single"):
            pk = r["peak_gflops"].get(precision)
            peak_text.append("not measured" if not pk else "%.0f (%s, %s)" % (pk["gflops"], pk["simd"], pk["platform"]))
        out.append("| %s | %s | %s | %s | %s |" % (m, ", ".join(r["platforms"]), bw_text, *peak_text))
    per_platform = [(m, p, v) for m, r in report["machines"].items() for p, v in r["peak_gflops_per_platform"].items()]
    if per_platform:
        out += ["", "Peak measured by each build (bench_peak_flops, the build's SIMD flags): " + "; ".join(
            "%s %s/%s GFLOPS (%s%s)" % (p, "%.0f" % v["double"]["gflops"] if "double" in v else "—",
                                        "%.0f" % v["single"]["gflops"] if "single" in v else "—",
                                        (v.get("double") or v.get("single"))["simd"],
                                        "" if (v.get("double") or v.get("single")).get("fused_multiply_add")
                                        else ", no FMA")
            for m, p, v in per_platform) + "."]
    out += ["", "Competitors in application efficiency: Latte on every platform of the same machine and the "
            "yardsticks %s; not competitors: %s (ceiling) and local_access." % (
                ", ".join(report["competitor_variants"]), ", ".join(report["ceiling_variants"]))]
    if report["roofline_skipped"]:
        out += ["", "No roofline point (gflops 0: the kernel has no flop model): " +
                by_kernel(report["roofline_skipped"]) + "."]
    if report["notes"]:
        out += ["", "Notes:", ""] + ["- " + n for n in report["notes"]]
    return "\n".join(out) + "\n"


# ---- roofline -------------------------------------------------------------------

MARKERS = {"axpy": "o", "wilson_dslash": "s", "wilson_dslash_even_odd": "D", "cg_iteration": "^",
           "lbm_d2q9_bgk": "v", "lbm_d3q19_bgk": "P", "lbm_d2q9_trt": "<", "lbm_d3q19_trt": ">",
           "norm2_spinor": "h", "inner_product_complex": "*", "sum_real": "X"}


def roofline(report, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    points = report["roofline_points"]
    platforms = list(report["platforms"])
    colours = {p: plt.cm.tab10(i % 10) for i, p in enumerate(platforms)}
    fig, ax = plt.subplots(figsize=(11, 7))
    ax.set_xscale("log")
    ax.set_yscale("log")
    xs = [pt["flops_per_byte"] for pt in points] or [0.1, 1]
    ys = [pt["gflops"] for pt in points] or [1, 10]
    ridge, tops = [], []
    for r in report["machines"].values():
        for pk in r["peak_gflops"].values():
            tops.append(pk["gflops"])
            if r["stream_triad_gbytes_per_s"]:
                ridge.append(pk["gflops"] / r["stream_triad_gbytes_per_s"])
    x_lo, x_hi = min(xs) / 3, max(xs + ridge) * 3
    y_lo, y_hi = min(ys) / 3, max(ys + tops) * 2.5
    x = [x_lo * (x_hi / x_lo) ** (i / 200) for i in range(201)]

    # A machine of one platform: that platform's colour; others black, gray.
    shared_colours = ["black", "dimgray", "darkgray"]
    ceiling_handles = []
    for m, r in report["machines"].items():
        if len(r["platforms"]) == 1:
            colour = colours[r["platforms"][0]]
        else:
            colour = shared_colours[0]
            shared_colours = shared_colours[1:] + shared_colours[:1]
        bw = r["stream_triad_gbytes_per_s"]
        peaks = r["peak_gflops"]
        if not bw and not peaks:
            continue
        if not peaks:
            ax.plot(x, [bw * v for v in x], color=colour, linestyle="-.", linewidth=1.2)
            ceiling_handles.append(Line2D([], [], color=colour, linestyle="-.", label=(
                "%s: STREAM triad %.0f GB/s (no peak FLOPS recorded: bandwidth ceiling only)" % (m, bw))))
            continue
        for precision, style in (("double", "-"), ("single", "--")):
            pk = peaks.get(precision)
            if not pk:
                continue
            roof = [min(bw * v, pk["gflops"]) if bw else pk["gflops"] for v in x]
            ax.plot(x, roof, color=colour, linestyle=style, linewidth=1.2)
            label = "%s: peak %s %.0f GFLOPS (measured, %s)" % (m, precision, pk["gflops"], pk["simd"])
            if bw:
                label += ", STREAM triad %.0f GB/s" % bw
            ceiling_handles.append(Line2D([], [], color=colour, linestyle=style, label=label))
        # The peaks of narrower instruction sets on the same machine (an
        # sse2 or avx2 build), faint; a lower figure of the best one's own
        # instruction set is noise, not a ceiling. Peaks within 15% of each
        # other share one line and label.
        lower = {}
        for p, by_precision in r["peak_gflops_per_platform"].items():
            for precision, v in by_precision.items():
                best = peaks.get(precision, {})
                if v["simd"] != best.get("simd") and v["gflops"] < 0.8 * best.get("gflops", 0):
                    lower.setdefault((v["simd"], precision), []).append(v["gflops"])
        groups = []
        for (simd, precision), values in sorted(lower.items(), key=lambda t: max(t[1])):
            value = max(values)
            if groups and value < 1.15 * groups[-1][0]:
                groups[-1][1].append("%s %s" % (simd, precision))
            else:
                groups.append([value, ["%s %s" % (simd, precision)]])
        for value, names in groups:
            ax.axhline(value, color=colour, linestyle=":", linewidth=0.7, alpha=0.6)
            ax.text(x_hi / 1.05, value * 1.03, "peak of the %s build%s" % (", ".join(names), "s" if len(names) > 1 else ""),
                    ha="right", va="bottom", fontsize=7, color=colour, alpha=0.8)

    for pt in points:
        c = colours[pt["platform"]]
        filled = pt["precision"] == "double"
        ax.scatter(pt["flops_per_byte"], pt["gflops"], marker=MARKERS.get(pt["bench"], "x"), s=46,
                   facecolors=c if filled else "none", edgecolors=c, linewidths=1.3, zorder=3)
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_hi)
    ax.set_xlabel("arithmetic intensity (flops per byte of the kernel's traffic model)")
    ax.set_ylabel("GFLOPS")
    ax.set_title("Roofline of Latte's kernels (filled: double, hollow: single)")
    ax.grid(True, which="both", alpha=0.25)
    platform_handles = [Line2D([], [], marker="o", linestyle="", color=colours[p], label=p) for p in platforms]
    benches = []
    for pt in points:
        if pt["bench"] not in benches:
            benches.append(pt["bench"])
    bench_handles = [Line2D([], [], marker=MARKERS.get(b, "x"), linestyle="", color="gray", label=b) for b in benches]
    first = ax.legend(handles=platform_handles + bench_handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      fontsize=8, title="platform / kernel", title_fontsize=8)
    ax.add_artist(first)
    ax.legend(handles=ceiling_handles, loc="lower right", fontsize=7, title="ceilings", title_fontsize=7)
    extra_artists = [first]
    if report["roofline_skipped"]:
        extra_artists.append(ax.text(0.0, -0.1, "Not drawn (0 flops, no flop model): %d lines, listed in the report" %
                len(report["roofline_skipped"]), transform=ax.transAxes, fontsize=7, va="top"))
    # The legend and the note outside the axes, named, so that the tight box keeps them.
    fig.savefig(path, dpi=130, bbox_inches="tight", bbox_extra_artists=extra_artists)
    plt.close(fig)


# ---- self-test ------------------------------------------------------------------

def self_test():
    failures = []

    def check(what, got, expected):
        ok = (abs(got - expected) <= 1e-12 * max(1.0, abs(expected))) if isinstance(expected, float) else got == expected
        print("%-60s %s (got %r, expected %r)" % (what, "ok" if ok else "FAILED", got, expected))
        if not ok:
            failures.append(what)

    check("Phi of 0.5 and 1.0 is 2/3", phi([0.5, 1.0]), 2.0 / 3.0)
    check("Phi of one platform is its efficiency", phi([0.25]), 0.25)
    check("Phi with a missing platform is 0", phi([0.5, None]), 0.0)
    check("Phi with a failed (0) platform is 0", phi([0.5, 0.0]), 0.0)
    check("Phi of an empty set is 0", phi([]), 0.0)

    def line(bench, backend, time, fraction, gflops=1.0, **extra):
        d = {"bench": bench, "backend": backend, "precision": "double", "lattice": [8, 8, 8, 8],
             "seconds": time, "gflops": gflops, "gbytes_per_s": 10.0 / time,
             "stream_triad_gbytes_per_s": 50.0, "fraction_of_stream": fraction, "bytes_per_site_model": 1536}
        d.update(extra)
        return d

    data = {
        # a: Latte 2 s; its hand-written yardstick 1.25 s; the access pattern
        # (0.5 s) is a ceiling, not a competitor. axpy: two runs of Latte
        # (the faster counts), beaten by the plain loop.
        "a": [line("wilson_dslash", "cpu", 2.0, 0.4),
              line("wilson_dslash_hand_written_yardstick", "plain-omp", 1.25, 0.64),
              line("wilson_dslash_access_pattern_yardstick", "plain-omp", 0.5, 1.6),
              line("axpy", "cpu", 1.0, 1.3), line("axpy", "cpu", 0.8, 1.25),
              line("axpy_plain_loop_yardstick", "plain-omp", 0.5, 2.0),
              line("sum_real", "cpu", 1.0, 0.5, gflops=0.0)],
        # b: the same machine, Latte 1 s; no axpy line.
        "b": [line("wilson_dslash", "cpu", 1.0, 0.8), line("sum_real", "cpu", 2.0, 0.25, gflops=0.0)],
        # c: another machine, Latte only, no seconds (reconstructed figures).
        "c": [line("wilson_dslash", "cuda", 1.0, 0.7, seconds=None, gbytes_per_s=100.0)],
    }
    report = analyse(data, {"ab": ["a", "b"], "ac": ["a", "c"], "ax": ["a", "x"]}, {"a": "cpu", "b": "cpu"})
    k = {(e["bench"]): e for e in report["kernels"]}
    d = k["wilson_dslash"]
    check("architectural efficiency is fraction_of_stream", d["platforms"]["a"]["architectural_efficiency"], 0.4)
    check("application efficiency: best on the machine / Latte's time",
          d["platforms"]["a"]["application_efficiency"], 0.5)
    check("the fastest width of the same machine counts as best", d["platforms"]["b"]["application_efficiency"], 1.0)
    check("best observed on machine cpu is Latte on b (access pattern ignored)",
          (d["best_observed"]["cpu"]["platform"], d["best_observed"]["cpu"]["implementation"]), ("b", "Latte"))
    check("a machine with only Latte's line: application efficiency 1",
          d["platforms"]["c"]["application_efficiency"], 1.0)
    check("Phi architectural over a and b", d["phi"]["ab"]["architectural"], phi([0.4, 0.8]))
    check("Phi application over a and b is harmonic mean of 0.5 and 1", d["phi"]["ab"]["application"], 2.0 / 3.0)
    check("Phi over a set with a platform without input is 0", d["phi"]["ax"]["application"], 0.0)
    a = k["axpy"]
    check("fraction_of_stream above 1 is capped at 1", a["platforms"]["a"]["architectural_efficiency"], 1.0)
    check("the faster of two lines of one kernel is used", a["platforms"]["a"]["latte"]["seconds"], 0.8)
    check("a competitor yardstick faster than Latte sets the best", a["platforms"]["a"]["application_efficiency"],
          0.5 / 0.8)
    check("best observed axpy is the plain loop", a["best_observed"]["cpu"]["implementation"], "plain loop yardstick")
    check("a kernel missing on b gives Phi 0", a["phi"]["ab"]["architectural"], 0.0)
    s = k["sum_real"]
    check("zero-flop kernel: application efficiency still computed", s["platforms"]["b"]["application_efficiency"], 0.5)
    check("zero-flop lines have no roofline point",
          sum(1 for n in report["roofline_skipped"] if n.startswith("sum_real")), 2)
    check("roofline points: Dslash on a, b, c and axpy on a",
          sorted((p["bench"], p["platform"]) for p in report["roofline_points"]),
          [("axpy", "a"), ("wilson_dslash", "a"), ("wilson_dslash", "b"), ("wilson_dslash", "c")])
    markdown(report)  # renders without error
    if failures:
        print("self-test: %d FAILED" % len(failures))
        return 1
    print("self-test: all passed")
    return 0


# ---- command line ---------------------------------------------------------------

def name_value(text, what):
    if "=" not in text:
        raise argparse.ArgumentTypeError("%s must be NAME=VALUE, got %r" % (what, text))
    name, value = text.split("=", 1)
    if not name or not value:
        raise argparse.ArgumentTypeError("%s must be NAME=VALUE, got %r" % (what, text))
    return name, value


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Performance portability (Pennycook, Sewall, Lee, FGCS 2019) of Latte's benchmark lines: "
                    "Markdown, JSON and a roofline plot.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Competitors, efficiencies and Phi are defined at the top of this file.")
    parser.add_argument("--input", action="append", default=[], type=lambda t: name_value(t, "--input"),
                        metavar="PLATFORM=FILE", help="JSON lines of one platform (repeat)")
    parser.add_argument("--set", action="append", default=[], type=lambda t: name_value(t, "--set"),
                        metavar="NAME=P1,P2,...", help="a named platform set for Phi (repeat; default: all inputs)")
    parser.add_argument("--machine", action="append", default=[], type=lambda t: name_value(t, "--machine"),
                        metavar="NAME=P1,P2,...",
                        help="platforms that ran on the same hardware (repeat; others are a machine each)")
    parser.add_argument("--out", metavar="DIR", help="write portability.md, portability.json and roofline.png here")
    parser.add_argument("--no-plot", action="store_true", help="no roofline.png (no matplotlib needed)")
    parser.add_argument("--self-test", action="store_true", help="check the metric on hand-computed numbers and exit")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.input:
        parser.error("give at least one --input PLATFORM=FILE (or --self-test)")

    platform_lines, files = {}, {}
    for name, path in args.input:
        if name in platform_lines:
            parser.error("platform %s given twice" % name)
        platform_lines[name] = read_lines(path)
        files[name] = path
        if not platform_lines[name]:
            print("portability_report: no JSON lines in %s (platform %s)" % (path, name), file=sys.stderr)
    sets = {name: [p for p in members.split(",") if p] for name, members in args.set} or {"all": list(platform_lines)}
    machines = {}
    for name, members in args.machine:
        for p in members.split(","):
            if p in machines:
                parser.error("platform %s is in two machines" % p)
            machines[p] = name
    report = analyse(platform_lines, sets, machines, files)
    text = markdown(report)
    sys.stdout.write(text)
    for n in report["notes"]:
        if "no input" in n:
            print("portability_report: " + n, file=sys.stderr)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "portability.md"), "w") as f:
            f.write(text)
        with open(os.path.join(args.out, "portability.json"), "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
        if not args.no_plot:
            roofline(report, os.path.join(args.out, "roofline.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
