#!/usr/bin/env python3
"""Per benchmark line, the median of new/old fraction_of_stream over the
pairs of runs in the JSON-lines files that bench/compare_builds.sh writes
(each line carries "build": "old" or "new"). Several files (several windows
of alternating runs) pool their pairs:
    python3 bench/compare_builds_summary.py a.jsonl [b.jsonl ...]
A pair (old run i, new run i of one line, in the order the runs were made)
counts only when the STREAM triads its two runs measured agree within 10 %:
on a VM whose memory bandwidth moves between levels (the 2-core Zen 5 VM
switched between ~47 and ~81 GB/s, between runs and within one), a kernel
timed at one level over STREAM at the other is no ratio of the two builds.
Beside it, each line shows the median speed ratio (old seconds over new
seconds) over all its pairs, STREAM figures agreeing or not: on a VM whose
time is stolen by its neighbours, a kernel bound by arithmetic or latency
(fraction_of_stream well below 1) does not move with STREAM, and dividing
by it adds STREAM's noise. A line none of whose pairs agree is listed too,
with no fraction ratio, so that no line drops out of the table unseen.
The lowest median is taken over the library's lines only. The yardsticks
(hand-written loops beside the library's kernels, and STREAM itself) are the
same source in both builds, so their medians are no property of either: the
range they span is printed apart, as the window's own noise floor."""
import json
import statistics
import sys


def line_key(d):
    return (d["bench"], d.get("precision", ""), str(d.get("lattice", "")), str(d.get("rhs", d.get("streaming", ""))))


def is_same_code(bench):
    # The benchmarks name their hand-written comparison loops "..._yardstick".
    return bench.endswith("_yardstick") or bench == "stream_triad"


def main(paths):
    pairs = {}  # line -> [(old, new)], pooled over the files
    for path in paths:
        runs = {}
        for text in open(path):
            d = json.loads(text)
            if d.get("fraction_of_stream") is None:
                continue
            runs.setdefault(line_key(d), {"old": [], "new": []})[d["build"]].append(d)
        for key, r in runs.items():
            pairs.setdefault(key, []).extend(zip(r["old"], r["new"]))
    worst = None
    yardsticks = []  # medians of the lines whose code is the same in both builds
    dropped = 0
    unjudged = 0  # lines listed without a fraction ratio
    for key, these in sorted(pairs.items()):
        ratios = []
        for o, n in these:
            so, sn = o.get("stream_triad_gbytes_per_s"), n.get("stream_triad_gbytes_per_s")
            if not o["fraction_of_stream"] > 0:  # nothing measured (a zero old figure) has no ratio
                continue
            if so and sn and abs(so / sn - 1) > 0.10:
                dropped += 1
                continue
            ratios.append(n["fraction_of_stream"] / o["fraction_of_stream"])
        name = " ".join(k for k in key if k)
        if not these:  # a benchmark one of the builds does not have
            print(f"{name:70s} in one build only")
            continue
        speeds = [o["seconds"] / n["seconds"] for o, n in these if o.get("seconds") and n.get("seconds")]
        speed = f"  speed new/old {statistics.median(speeds):.3f} ({len(speeds)})" if speeds else ""
        old_median = statistics.median(o["fraction_of_stream"] for o, _ in these)
        new_median = statistics.median(n["fraction_of_stream"] for _, n in these)
        if not ratios:
            why = "no pair with agreeing STREAM" if old_median > 0 else "no fraction_of_stream measured"
            print(f"{name:70s} old {old_median:.3f} new {new_median:.3f} {why}{speed}")
            unjudged += 1
            continue
        median = statistics.median(ratios)
        if is_same_code(key[0]):
            yardsticks.append(median)
        else:
            worst = median if worst is None else min(worst, median)
        print(f"{name:70s} old {old_median:.3f} new {new_median:.3f} median new/old {median:.3f} ({len(ratios)} pairs){speed}")
    print(f"pairs left out (their STREAM figures more than 10 % apart): {dropped}")
    print(f"lines without a fraction ratio (not in the lowest median below): {unjudged}")
    if yardsticks:
        print(f"same-code yardsticks (not judged), medians new/old: {min(yardsticks):.3f} to {max(yardsticks):.3f}")
    print(f"lowest median new/old over the library's lines: {worst:.3f}" if worst is not None else "no comparable lines")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: compare_builds_summary.py runs.jsonl [more.jsonl ...]")
    main(sys.argv[1:])
