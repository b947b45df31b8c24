#pragma once
// One JSON line per benchmark result, with a fixed set of fields (in
// that order) and then any extras. Derived figures (gflops, gbytes_per_s,
// fraction_of_stream) are computed here from the raw time, flop and byte
// counts, so that every benchmark derives them the same way.

#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend.hpp"

namespace latte::bench {

// The register width of the virtual-node layout this build uses; the
// LATTE_SIMD option it came from (e.g. "native") is reported beside it.
inline std::string simd_name() {
#if defined(LATTE_BACKEND_CUDA)
  // A GPU build groups lanes into "vectors" of LATTE_CUDA_VECTOR_BYTES: the
  // layout's width, not a CPU instruction set.
  return std::to_string(LATTE_SIMD_BYTES) + "-byte virtual nodes";
#else
  switch (LATTE_SIMD_BYTES) {
    case 0: return "scalar";
    case 16: return "sse2";
    case 32: return "avx2";
    case 64: return "avx512";
    default: return std::to_string(LATTE_SIMD_BYTES) + "-byte";
  }
#endif
}

inline std::string simd_build_option() {
#if defined(LATTE_SIMD_NAME)
  return LATTE_SIMD_NAME;
#else
  return "unknown";
#endif
}

struct Result {
  std::string bench;
  std::string precision;          // "double" or "single"
  std::vector<int> lattice;       // global extents
  double seconds = 0;             // one call of the timed kernel
  double flops = 0;               // per call
  double bytes = 0;               // per call, by the benchmark's stated minimal-traffic model
  double stream_triad_gbytes_per_s = 0;
  std::string backend = backend::Default::name;  // plain-loop yardsticks say so here
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
};

template <class Real> std::string precision_name() { return sizeof(Real) == 8 ? "double" : "single"; }

inline nlohmann::ordered_json to_json(const Result& r) {
  const double gbytes_per_s = r.bytes / r.seconds * 1e-9;
  nlohmann::ordered_json j;
  j["bench"] = r.bench;
  j["backend"] = r.backend;
  j["simd"] = simd_name();
  j["precision"] = r.precision;
  j["lattice"] = r.lattice;
  j["seconds"] = r.seconds;
  j["gflops"] = r.flops / r.seconds * 1e-9;
  j["gbytes_per_s"] = gbytes_per_s;
  j["stream_triad_gbytes_per_s"] = r.stream_triad_gbytes_per_s;
  j["fraction_of_stream"] = gbytes_per_s / r.stream_triad_gbytes_per_s;
  j["simd_build"] = simd_build_option();
  for (const auto& [key, value] : r.extra.items()) j[key] = value;
  return j;
}

// Flushes at once: a long benchmark that is killed keeps the lines it printed.
inline void print_json_line(const Result& r, std::ostream& out = std::cout) {
  out << to_json(r).dump() << std::endl;
}

}  // namespace latte::bench
