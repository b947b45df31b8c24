#!/usr/bin/env python3
"""How Latte's Wilson Dslash and D3Q19 step scale over many nodes: a model,
checked against the figures of bench/scaling_run.sh and projected to 4,096
nodes.

    python3 bench/scaling_model.py scaling.jsonl      # check, then project
    python3 bench/scaling_model.py                     # project only

The model of one call on N nodes, each holding a block of V sites of the
global lattice (process grid chosen by Latte's default rule, below):

    compute  = V * b / B              b: bytes per site of the traffic model
                                      (Dslash 192 doubles, D3Q19 2 x 19);
                                      B: a node's effective bandwidth, its
                                      STREAM triad times the kernel's measured
                                      fraction_of_stream
    comm     = sum over messages (latency + bytes / network bandwidth)
               messages: Dslash 2 per split dimension (half spinors, 12
               doubles per face site); D3Q19 one per crossing population
               and face (5 per face, 10 per split dimension, plus 4 edge
               messages per pair of split dimensions, 1 double per site;
               a site crossing two faces is sent once)
    time     = compute + (1 - overlap) * comm
    efficiency(N) = time(1) / (N * time(N))  (strong: global lattice fixed)

overlap = 0 (nothing hidden: what the shared-memory runs here measure,
MPI progressing only inside MPI calls) and overlap = 1 (all hidden behind
the interior) bound the projection. The network: 25 GB/s and 2 us per
message by default (--network-gbytes, --latency-us), e.g. one 200 Gb/s
InfiniBand port per node; a GPU node's messages are assumed to leave from
device memory (CUDA-aware MPI with GPUDirect RDMA) at that rate.
"""

import argparse
import json
import math
import sys

DSLASH_BYTES_PER_SITE = 192 * 8       # 8 links + 1 in + 1 out spinor, doubles
D3Q19_BYTES_PER_SITE = 2 * 19 * 8      # read f, write f_next, doubles
HALF_SPINOR_BYTES = 12 * 8
D3Q19_CROSSING = 5                     # populations crossing a face


def prime_factors(n):
    factors, p = [], 2
    while n > 1:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    return factors


def default_process_grid(dims, ranks):
    """Latte's rule (lattice/layout/decomposition.hpp): prime factors of the ranks,
    largest first, each to the dimension with the largest local extent it
    divides, the last such dimension on a tie."""
    grid = [1] * len(dims)
    for f in sorted(prime_factors(ranks), reverse=True):
        best = -1
        for mu in range(len(dims)):
            local = dims[mu] // grid[mu]
            if local % f == 0 and (best < 0 or local >= dims[best] // grid[best]):
                best = mu
        if best < 0:
            return None
        grid[best] *= f
    return grid


def halo(kind, local, grid):
    """Bytes and messages one rank sends per call."""
    split = [mu for mu in range(len(local)) if grid[mu] > 1]
    volume = math.prod(local)
    bytes_, messages = 0.0, 0
    for mu in split:
        face = volume // local[mu]
        if kind == "dslash":
            bytes_ += 2 * face * HALF_SPINOR_BYTES
            messages += 2
        else:
            bytes_ += 2 * face * D3Q19_CROSSING * 8
            messages += 2 * D3Q19_CROSSING
    if kind == "d3q19":
        # The 4 populations crossing both faces of a pair of split
        # dimensions send their sites on the shared edge once, to the
        # diagonal rank, in a message of its own: the faces above counted
        # those sites twice.
        for i in range(len(split)):
            for j in range(i + 1, len(split)):
                edge = volume // (local[split[i]] * local[split[j]])
                bytes_ -= 4 * edge * 8
                messages += 4
    return bytes_, messages


def call_time(kind, dims, nodes, node_bandwidth, network, latency, overlap):
    grid = default_process_grid(dims, nodes)
    if grid is None:
        return None
    local = [d // g for d, g in zip(dims, grid)]
    bytes_per_site = DSLASH_BYTES_PER_SITE if kind == "dslash" else D3Q19_BYTES_PER_SITE
    compute = math.prod(local) * bytes_per_site / node_bandwidth
    halo_bytes, messages = halo(kind, local, grid)
    comm = messages * latency + halo_bytes / network
    return {"grid": grid, "local": local, "compute": compute, "comm": comm, "halo_bytes": halo_bytes,
            "messages": messages, "time": compute + (1 - overlap) * comm}


def check(lines, latency_here):
    """The model against the measured runs of one machine. On one node the
    ranks share its cores and memory, so the compute term of N ranks is the
    one-rank time of the same global lattice, and the messages go through
    shared memory at the machine's STREAM copy rate (read and write: half of
    it) with `latency_here` each."""
    print("== Check against this machine (bench/scaling_run.sh) ==")
    print("%-7s %-24s %5s %-14s %12s %12s %9s %9s %9s %8s" % (
        "scaling", "kernel", "ranks", "grid", "halo B meas", "halo B model", "t meas", "t model", "comm meas", "overlap"))
    one = {}
    for j in lines:
        if j["bench"] != "stream_triad" and j["ranks"] == 1:
            one[(j["scaling"], j["bench"])] = j
    for j in lines:
        if j["bench"] == "stream_triad" or j["ranks"] == 1:
            continue
        base = one.get((j["scaling"], j["bench"]))
        if base is None:
            continue
        work = math.prod(j["lattice"]) / math.prod(base["lattice"])  # weak: more sites on the same cores
        kind = "dslash" if j["bench"].startswith("wilson_dslash") else "d3q19"
        per_rank_bytes, per_rank_messages = halo(kind, j["local_lattice"], j["process_grid"])
        if j["bench"] == "wilson_dslash_even_odd":
            per_rank_bytes /= 2
        shared_memory = j["stream_copy_gbytes_per_s"] * 1e9 / 2
        # Ranks on one node send in parallel, through the same memory.
        comm = per_rank_messages * latency_here + j["ranks"] * per_rank_bytes / shared_memory
        model = base["seconds"] * work + comm
        print("%-7s %-24s %5d %-14s %12.0f %12.0f %8.2fms %8.2fms %8.2fms %8s" % (
            j["scaling"], j["bench"], j["ranks"], json.dumps(j["process_grid"]), j["halo_bytes_per_call"],
            per_rank_bytes * j["ranks"], j["seconds"] * 1e3, model * 1e3,
            j["communication_seconds_per_call"] * 1e3,
            "%.2f" % j["overlap_efficiency"] if j.get("overlap_efficiency") is not None else "-"))
    print()


def project(node_name, bandwidths, network, latency):
    print("== Projection: %s, network %.0f GB/s, %.1f us per message ==" % (node_name, network / 1e9, latency * 1e6))
    cases = [("dslash", [64, 64, 64, 128]), ("dslash", [96, 96, 96, 192]),
             ("d3q19", [256, 256, 512]), ("d3q19", [384, 384, 768])]
    print("%-7s %-18s %6s %-16s %14s %10s %10s %8s %8s" % (
        "kernel", "lattice", "nodes", "grid", "halo B/node", "compute", "comm", "eff ov=0", "eff ov=1"))
    for kind, dims in cases:
        b = bandwidths[kind]
        t1 = call_time(kind, dims, 1, b, network, latency, 0)["time"]
        for nodes in [1, 2, 4, 8, 16, 64, 256, 1024, 4096]:
            r0 = call_time(kind, dims, nodes, b, network, latency, 0)
            r1 = call_time(kind, dims, nodes, b, network, latency, 1)
            if r0 is None:
                continue
            t_perfect = max(r1["compute"], r0["comm"])  # hidden communication still takes its time
            print("%-7s %-18s %6d %-16s %14.3e %8.1fus %8.1fus %8.3f %8.3f" % (
                kind, "x".join(map(str, dims)), nodes, json.dumps(r0["grid"]), r0["halo_bytes"],
                r0["compute"] * 1e6, r0["comm"] * 1e6, t1 / (nodes * r0["time"]), t1 / (nodes * t_perfect)))
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("measured", nargs="?", help="JSON lines of bench/scaling_run.sh")
    parser.add_argument("--network-gbytes", type=float, default=25.0)
    parser.add_argument("--latency-us", type=float, default=2.0)
    parser.add_argument("--shared-memory-latency-us", type=float, default=1.0)
    args = parser.parse_args()
    network, latency = args.network_gbytes * 1e9, args.latency_us * 1e-6

    if args.measured:
        lines = [json.loads(l) for l in open(args.measured) if l.strip()]
        check(lines, args.shared_memory_latency_us * 1e-6)
        # This machine as a node: its measured one-rank effective bandwidths.
        here = {}
        for j in lines:
            if j["ranks"] == 1 and j["scaling"] == "strong":
                if j["bench"] == "wilson_dslash":
                    here["dslash"] = j["gbytes_per_s"] * 1e9
                elif j["bench"].startswith("lbm_d3q19"):
                    here["d3q19"] = j["gbytes_per_s"] * 1e9
        if len(here) == 2:
            project("a node like this machine (%.0f GB/s Dslash, %.0f GB/s D3Q19, measured)" % (
                here["dslash"] / 1e9, here["d3q19"] / 1e9), here, network, latency)
    # An H100 node, measured in README's GPU table: triad 3.08 TB/s, Dslash
    # 0.74 of it at 32^4, D3Q19 0.82 at 256^3 (double).
    project("an NVIDIA H100 node (Dslash 0.74, D3Q19 0.82 of a 3.08 TB/s triad, measured)",
            {"dslash": 0.74 * 3.08e12, "d3q19": 0.82 * 3.08e12}, network, latency)


if __name__ == "__main__":
    sys.exit(main())
