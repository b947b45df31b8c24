#pragma once
// Helpers of the decomposition tests, which run under mpirun -np 1, 2, 4 and
// 16 (and, at one rank, in the ordinary suite): every result on a lattice
// spread over ranks is compared bit for bit with the same computation on a
// replicated lattice, which each rank holds whole and computes alone (the
// one-rank result). Verdicts are agreed on by all ranks, so every rank takes
// the same path through a test and no collective is left waiting.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dsl/latte.hpp"
#include "test_support.hpp"

namespace latte::testing {

// The 4-D lattice of the tests: 8^4 splits over 2, 4 and 16 ranks and still
// leaves every block room for the SIMD lanes.
inline const Coordinate lattice4{8, 8, 8, 8};

inline const Communicator& world() {
  static const Communicator comm = world_communicator();
  return comm;
}

// The one-rank reference: the whole lattice on every rank, no halos.
inline Geometry replicated(const Coordinate& dims) {
  GeometryOptions options;
  options.replicated = true;
  options.force_communication = Coordinate(dims.size(), 0);
  return Geometry(dims, options);
}

inline Geometry decomposed(const Coordinate& dims, const Coordinate& grid, const Coordinate& forced = {}) {
  GeometryOptions options;
  options.process_grid = grid;
  options.force_communication = forced.empty() ? Coordinate(dims.size(), 0) : forced;
  return Geometry(dims, options);
}

struct Decomposed {
  Coordinate grid, forced;
  std::string name() const { return "process grid " + to_string(grid) + " forced " + to_string(forced); }
};

// Process grids to test for this number of ranks and dimensions: grids that
// split one, two and (with 16 ranks) every dimension, dimensions split over
// both SIMD lanes and ranks (the default lane grid splits the last
// dimensions, as these grids do), and forced communication in the
// dimensions the ranks do not split, so that every dimension communicates.
inline std::vector<Decomposed> decompositions(int dims) {
  const int ranks = world().size();
  const Coordinate none(dims, 0), all(dims, 1);
  Coordinate last_only(dims, 0);
  last_only[dims - 1] = 1;
  auto grid = [&](std::initializer_list<int> last) {
    Coordinate g(dims, 1);
    int mu = dims - static_cast<int>(last.size());
    for (int p : last) g[mu++] = p;
    return g;
  };
  std::vector<Decomposed> out;
  if (ranks == 1) {
    out = {{grid({}), all}, {grid({}), last_only}};
  } else if (ranks == 2) {
    Coordinate first(dims, 1);
    first[0] = 2;
    out = {{grid({2}), none}, {first, none}, {grid({2}), all}};
  } else if (ranks == 4) {
    Coordinate first(dims, 1);
    first[0] = 4;
    out = {{grid({2, 2}), none}, {first, none}, {grid({4}), all}};
  } else if (ranks == 16) {
    out = dims == 4 ? std::vector<Decomposed>{{grid({2, 2, 2, 2}), none}}
                    : std::vector<Decomposed>{{default_process_grid(Coordinate(dims, 16), 16), none}};
  } else {
    out = {{default_process_grid(Coordinate(dims, 64), ranks), all}};
  }
  return out;
}

// body(geometry) on the lattice of extents dims, spread over the ranks in
// each of the decompositions above in turn (named in failure messages).
template <class Body>
void for_each_decomposition(const Coordinate& dims, Body&& body) {
  for (const Decomposed& d : decompositions(static_cast<int>(dims.size()))) {
    SCOPED_TRACE(d.name());
    body(decomposed(dims, d.grid, d.forced));
  }
}

// Bit patterns of two site values.
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Every site of the decomposed field holds the very bits of the replicated
// one. Agreed on by all ranks.
template <class T, class W>
::testing::AssertionResult same_as_one_rank(const Lattice<T, W>& split, const Lattice<T, W>& whole) {
  const SiteLayout& layout = split.layout();
  const auto a = split.host_view(Access::read);
  const auto b = whole.host_view(Access::read);
  std::int64_t differing = 0, checked = 0;
  Coordinate first;
  for (std::int64_t o = 0; o < layout.outer_volume(); ++o)
    for (int l = 0; l < layout.nsimd(); ++l) {
      const Coordinate x = layout.join(o, l);
      const auto [wo, wl] = whole.layout().split(x);
      const T va = a.load(LaneSite<real_of_t<T>>{o, l});
      const T vb = b.load(LaneSite<real_of_t<T>>{wo, wl});
      ++checked;
      if (!same_bits(va, vb) && differing++ == 0) first = x;
    }
  const Communicator& comm = layout.decomposition().communicator();
  if (comm.all_true(differing == 0 && checked == layout.volume())) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure();
  if (differing) failure << "rank " << comm.rank() << ": " << differing << " sites differ, first " << to_string(first);
  else failure << "another rank found different bits";
  return failure;
}

// Two doubles (or tensors of them) with the same bits on every rank.
template <class T>
::testing::AssertionResult same_result(const T& split, const T& whole) {
  if (world().all_true(same_bits(split, whole))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "results differ in their bits on some rank";
}

}  // namespace latte::testing
