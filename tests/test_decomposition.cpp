// Statements on a lattice spread over ranks give the very bits of one rank:
// shifts of every kind (unit, long, diagonal, nested, of compound
// expressions, checkerboard hops, pick and merge), reductions, random and
// coordinate fields, peek and poke, statements on large sites (in tiled
// order); and the errors of bad decompositions.
// Run under mpirun with 2, 4 and 16 ranks, and at one rank (forced
// communication) in the ordinary suite.

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>

#include "decomposition_support.hpp"
#include "lattice/fields/coordinate_field.hpp"
#include "lattice/layout/site_walk.hpp"

// Allocations through operator new in this program (tests/allocation_counter.cpp).
extern std::atomic<long> allocations;

namespace latte::testing {
namespace {


// A field holding each site's global index (exact in double).
template <class W>
void fill_global_index(Lattice<double, W>& f) {
  const Geometry& g = f.geometry();
  const auto view = f.host_view(Access::write);
  for_each_site(f.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
    view.store(LaneSite<double>{o, l}, static_cast<double>(g.global_index(x)));
  });
}

// Every displacement of the test: unit, long (beyond a block, and beyond
// the whole lattice) and all diagonal neighbours of a D3Q27-like stencil
// in the last three dimensions.
std::vector<Coordinate> displacements() {
  std::vector<Coordinate> out;
  for (int mu = 0; mu < 4; ++mu)
    for (int step : {+1, -1, +3, -5, +9}) out.push_back(unit_displacement(4, mu, step));
  for (int a = -1; a <= 1; ++a)
    for (int b = -1; b <= 1; ++b)
      for (int c = -1; c <= 1; ++c) out.push_back({0, a, b, c});
  out.push_back({1, -1, 1, -1});
  out.push_back({2, -3, 5, 7});
  return out;
}

TEST(Decomposition, EveryShiftOfTheGlobalIndex) {
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<double> index(g), shifted(g);
    fill_global_index(index);
    for (const Coordinate& step : displacements()) {
      shifted = shift(index, step);
      // Expected: the global index of x + step, exactly.
      std::int64_t wrong = 0;
      const auto view = shifted.host_view(Access::read);
      for (std::int64_t o = 0; o < shifted.outer_volume(); ++o)
        for (int l = 0; l < shifted.layout().nsimd(); ++l) {
          const Coordinate x = shifted.layout().join(o, l);
          const double expected = static_cast<double>(g.global_index(displaced(x, step, g.dims())));
          wrong += view.load(LaneSite<double>{o, l}) != expected;
        }
      EXPECT_TRUE(world().all_true(wrong == 0)) << "displacement " << to_string(step);
    }
  });
}

TEST(Decomposition, CompoundAndNestedShiftsMatchOneRank) {
  const Geometry whole = replicated(lattice4);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<ColourMatrix<double>> U(g), U1(whole);
    Lattice<ColourVector<double>> c(g), c1(whole), out(g), out1(whole);
    ParallelRng(5).gaussian(U);
    ParallelRng(5).gaussian(U1);
    ParallelRng(6).gaussian(c);
    ParallelRng(6).gaussian(c1);
    for (int mu = 0; mu < 4; ++mu)
      for (int step : {+1, -1}) {
        out = shift(U * c + 2.0 * c, mu, step);
        out1 = shift(U1 * c1 + 2.0 * c1, mu, step);
        EXPECT_TRUE(same_as_one_rank(out, out1)) << "compound, direction " << mu << " step " << step;
      }
    out = shift(shift(c, 0, +1) * 2.0, 3, -1) + shift(U * shift(c, 1, +1), 2, +1) + adj(U) * shift(c, {1, 1, -1, 1});
    out1 = shift(shift(c1, 0, +1) * 2.0, 3, -1) + shift(U1 * shift(c1, 1, +1), 2, +1) + adj(U1) * shift(c1, {1, 1, -1, 1});
    EXPECT_TRUE(same_as_one_rank(out, out1)) << "nested";
    // A shift of the destination (evaluated into fresh storage) and +=.
    out = c;
    out1 = c1;
    out += shift(out, 3, +1) * 0.5;
    out1 += shift(out1, 3, +1) * 0.5;
    EXPECT_TRUE(same_as_one_rank(out, out1)) << "aliasing";
  });
}

// Several destinations in one pass, reading each other at neighbours.
TEST(Decomposition, MultiDestinationStatementMatchesOneRank) {
  const Geometry whole = replicated(lattice4);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<ColourMatrix<double>> U(g), U1(whole), P(g), P1(whole);
    Lattice<ColourVector<double>> c(g), c1(whole);
    ParallelRng(21).gaussian(U);
    ParallelRng(21).gaussian(U1);
    ParallelRng(22).gaussian(P);
    ParallelRng(22).gaussian(P1);
    ParallelRng(23).gaussian(c);
    ParallelRng(23).gaussian(c1);
    for (int mu = 0; mu < 4; ++mu) {
      assign_all(std::tie(U, P, c), U + 0.25 * shift(P, mu, +1), P - 0.5 * U * shift(U, mu, -1), shift(U * c, mu, +1));
      assign_all(std::tie(U1, P1, c1), U1 + 0.25 * shift(P1, mu, +1), P1 - 0.5 * U1 * shift(U1, mu, -1),
                 shift(U1 * c1, mu, +1));
      EXPECT_TRUE(same_as_one_rank(U, U1)) << "U, direction " << mu;
      EXPECT_TRUE(same_as_one_rank(P, P1)) << "P, direction " << mu;
      EXPECT_TRUE(same_as_one_rank(c, c1)) << "c, direction " << mu;
    }
  });
}

TEST(Decomposition, CheckerboardHopsPickAndMergeMatchOneRank) {
  const Geometry whole = replicated(lattice4);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<ColourVector<double>> psi(g), psi1(whole), back(g), back1(whole);
    ParallelRng(8).gaussian(psi);
    ParallelRng(8).gaussian(psi1);
    Lattice<ColourVector<double>> even(g.checkerboard(Parity::even)), even1(whole.checkerboard(Parity::even));
    Lattice<ColourVector<double>> odd(g.checkerboard(Parity::odd)), odd1(whole.checkerboard(Parity::odd));
    even = pick(Parity::even, psi);
    even1 = pick(Parity::even, psi1);
    EXPECT_TRUE(same_as_one_rank(even, even1)) << "pick";
    for (int mu = 0; mu < 4; ++mu) {
      odd = shift(even, mu, +1) + 0.5 * shift(even, mu, -1);
      odd1 = shift(even1, mu, +1) + 0.5 * shift(even1, mu, -1);
      EXPECT_TRUE(same_as_one_rank(odd, odd1)) << "hop from even sites, direction " << mu;
      even = shift(odd, mu, -1) - even;
      even1 = shift(odd1, mu, -1) - even1;
      EXPECT_TRUE(same_as_one_rank(even, even1)) << "hop from odd sites, direction " << mu;
    }
    back = merge(even, odd);
    back1 = merge(even1, odd1);
    EXPECT_TRUE(same_as_one_rank(back, back1)) << "merge";
  });
}

// Statements whose sites are large (24 spinors: 4.5 KB per site even on one
// lane) visit the interior and the surface in tiled order on the CPU
// (lattice/layout/tiled_order.hpp), on the whole lattice and on a checkerboard:
// every site once, the surface after its halos, the bits of one rank.
TEST(Decomposition, LargeSitesInTiledOrderMatchOneRank) {
  using Batch24 = MultiSpinor<double, 24>;
  const Geometry whole = replicated(lattice4);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<Batch24> psi(g), psi1(whole), out(g), out1(whole);
    ParallelRng(9).gaussian(psi);
    ParallelRng(9).gaussian(psi1);
    out = shift(psi, 0, +1) + shift(psi, 1, -1) + shift(psi, 2, +1) + shift(psi, 3, -1) + shift(psi, {1, 1, -1, 1}) - psi;
    out1 = shift(psi1, 0, +1) + shift(psi1, 1, -1) + shift(psi1, 2, +1) + shift(psi1, 3, -1) + shift(psi1, {1, 1, -1, 1}) -
           psi1;
    EXPECT_TRUE(same_as_one_rank(out, out1)) << "whole lattice";
    Lattice<Batch24> even(g.checkerboard(Parity::even)), even1(whole.checkerboard(Parity::even));
    Lattice<Batch24> odd(g.checkerboard(Parity::odd)), odd1(whole.checkerboard(Parity::odd));
    even = pick(Parity::even, psi);
    even1 = pick(Parity::even, psi1);
    odd = shift(even, 3, +1) + shift(even, 0, -1) - shift(even, 2, +1);
    odd1 = shift(even1, 3, +1) + shift(even1, 0, -1) - shift(even1, 2, +1);
    EXPECT_TRUE(same_as_one_rank(odd, odd1)) << "hop from even sites";
  });
}

// A shift of a batch of right-hand sides, evaluated one right-hand side at
// a time (dsl/expr/batch_lowering.hpp), exchanges one halo holding the whole
// batch: as many halos as the same statement on one spinor field, each 24
// times its bytes.
TEST(Decomposition, ABatchShiftHasOneHaloHoldingTheWholeBatch) {
  using Batch24 = MultiSpinor<double, 24>;
  int with_halos = 0;
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<Spinor<double>> psi(g);
    Lattice<Batch24> batch(g);
    StatementPlan<backend::Default> plan(psi.layout()), batch_plan(batch.layout());
    (void)prepare(lower_batches(as_node(shift(psi, 0, +1) + shift(psi, 3, -1) - psi)), plan);
    (void)prepare(lower_batches(as_node(shift(batch, 0, +1) + shift(batch, 3, -1) - batch)), batch_plan);
    EXPECT_EQ(batch_plan.halo_count(), plan.halo_count());
    EXPECT_EQ(batch_plan.halo_bytes(), 24 * plan.halo_bytes());
    with_halos += plan.halo_count() > 0;
  });
  EXPECT_GT(with_halos, 0) << "no decomposition exchanged halos";
}

TEST(Decomposition, EveryReductionHasTheBitsOfOneRank) {
  const Geometry whole = replicated(lattice4);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<Spinor<double>> a(g), b(g), a1(whole), b1(whole);
    Lattice<double> r(g), r1(whole);
    Lattice<ColourMatrix<float>> m(g), m1(whole);
    ParallelRng(11).gaussian(a);
    ParallelRng(11).gaussian(a1);
    ParallelRng(12).gaussian(b);
    ParallelRng(12).gaussian(b1);
    ParallelRng(13).uniform(r, -3, 2);
    ParallelRng(13).uniform(r1, -3, 2);
    ParallelRng(14).gaussian(m);
    ParallelRng(14).gaussian(m1);
    EXPECT_TRUE(same_result(norm2(a), norm2(a1)));
    EXPECT_TRUE(same_result(innerProduct(a, b), innerProduct(a1, b1)));
    EXPECT_TRUE(same_result(sum(a), sum(a1)));
    EXPECT_TRUE(same_result(sum(m), sum(m1)));
    EXPECT_TRUE(same_result(sum(r), sum(r1)));
    EXPECT_TRUE(same_result(maxval(r), maxval(r1)));
    EXPECT_TRUE(same_result(minval(r), minval(r1)));
    EXPECT_TRUE(same_result(norm2(a - 0.5 * shift(b, 2, -1)), norm2(a1 - 0.5 * shift(b1, 2, -1))));
    EXPECT_TRUE(same_result(sum(r * shift(r, {0, 1, 1, -1})), sum(r1 * shift(r1, {0, 1, 1, -1}))));
    const double fused = assign_and_sum(a, b - shift(a, 3, +1), localNorm2(a));
    const double fused1 = assign_and_sum(a1, b1 - shift(a1, 3, +1), localNorm2(a1));
    EXPECT_TRUE(same_result(fused, fused1));
    EXPECT_TRUE(same_as_one_rank(a, a1));
    // The maximum is a real site value; the sum of a field of ones counts sites.
    r = 1.0;
    EXPECT_EQ(sum(r), static_cast<double>(g.volume()));
  });
}

TEST(Decomposition, OverlapDoesNotChangeTheBits) {
  const Geometry whole = replicated(lattice4);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<ComplexD> f(g), with(g), without(g);
    ParallelRng(3).gaussian(f);
    auto stencil = [&](Lattice<ComplexD>& out) {
      out = shift(f, 0, +1) + shift(f, 0, -1) + shift(f, 1, +1) + shift(f, 1, -1) + shift(f, 2, +1) + shift(f, 2, -1) +
            shift(f, 3, +1) + shift(f, 3, -1) - 8.0 * f;
    };
    stencil(with);
    set_communication_overlap(false);
    stencil(without);
    set_communication_overlap(true);
    EXPECT_TRUE(same_as_one_rank(with, without));
  });
}

TEST(Decomposition, CoordinatesRandomNumbersPeekAndPokeAreGlobal) {
  const Geometry whole = replicated(lattice4);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<double> coordinate(g), coordinate1(whole), parity(g), parity1(whole);
    for (int mu = 0; mu < 4; ++mu) {
      fill_coordinate(coordinate, mu);
      fill_coordinate(coordinate1, mu);
      EXPECT_TRUE(same_as_one_rank(coordinate, coordinate1)) << "coordinate " << mu;
    }
    fill_parity(parity);
    fill_parity(parity1);
    EXPECT_TRUE(same_as_one_rank(parity, parity1));
    // fill from a function of the global coordinate.
    const auto wave = [](const Coordinate& x) { return std::sin(0.3 * x[0] + 0.1 * x[3]) * x[1] - 0.5 * x[2]; };
    Lattice<double> filled(g), filled1(whole);
    fill(filled, wave);
    fill(filled1, wave);
    EXPECT_TRUE(same_as_one_rank(filled, filled1));
    EXPECT_EQ(peek(filled, {3, 2, 5, 6}), wave({3, 2, 5, 6}));
    Lattice<Spinor<float>> random(g), random1(whole);
    ParallelRng(21).uniform(random, -1, 1);
    ParallelRng(21).uniform(random1, -1, 1);
    EXPECT_TRUE(same_as_one_rank(random, random1));
    // poke by the owner; peek gives every rank the value.
    const Coordinate site{7, 3, 6, 5};
    poke(coordinate, site, 42.0);
    EXPECT_EQ(peek(coordinate, site), 42.0);
    EXPECT_EQ(peek(coordinate, {0, 0, 0, 7}), 7.0);  // coordinate 3 was filled last
    EXPECT_EQ(peek(coordinate, {1, 2, 5, 6}), 6.0);
    EXPECT_EQ(sum(coordinate), sum(coordinate1) + 42.0 - 5.0);
  });
}

// The statements of a CG iteration (a stencil with |.|^2 in the same pass,
// updates, reductions), repeated once their plans, tables and halo buffers
// exist, allocate nothing.
TEST(Decomposition, RepeatedStatementsAllocateNothing) {
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<Spinor<double>> p(g), r(g), x(g), Ap(g);
    ParallelRng(4).gaussian(p);
    r = p;
    x = zero;
    const Coordinate diagonal{0, 1, 1, 0};
    auto iteration = [&] {
      const double pAp = assign_and_sum(Ap, 4.0 * p - 0.5 * (shift(p, 0, +1) + shift(p, 3, -1) + shift(p, diagonal)),
                                        localNorm2(Ap));
      x += (1.0 / pAp) * p;
      const double rr = assign_and_sum(r, (1.0 / pAp) * Ap, localNorm2(r), AssignSubtract{});
      p = r + (rr / pAp) * p;
      return real(innerProduct(p, r)) + norm2(shift(p, 2, -1));
    };
    iteration();
    iteration();
    const long before = allocations.load();
    for (int k = 0; k < 3; ++k) iteration();
    EXPECT_TRUE(world().all_true(allocations.load() == before)) << allocations.load() - before << " allocations";
  });
}

// ---- bad decompositions: clear errors, thrown on every rank ----------------------------

TEST(Decomposition, BadGridsAndMixedDecompositionsAreRefused) {
  const int ranks = world().size();
  // A grid whose product is not the number of ranks.
  const std::string wrong_count =
      error_of<LayoutError>([&] { decomposed(lattice4, {1, 1, 1, 2 * ranks}); });
  EXPECT_NE(wrong_count.find("[1 1 1 " + std::to_string(2 * ranks) + "]"), std::string::npos) << wrong_count;
  EXPECT_NE(wrong_count.find("the job has " + std::to_string(ranks)), std::string::npos) << wrong_count;
  // A grid that does not divide the extents.
  if (ranks > 1) {
    const std::string indivisible = error_of<LayoutError>([&] { decomposed({8, 8, 8, 2 * ranks + 1}, {1, 1, 1, ranks}); });
    EXPECT_NE(indivisible.find("process grid [1 1 1 " + std::to_string(ranks) + "]"), std::string::npos) << indivisible;
    EXPECT_NE(indivisible.find("[8 8 8 " + std::to_string(2 * ranks + 1) + "]"), std::string::npos) << indivisible;
  }
  // Local extents that the SIMD lanes cannot tile (half as many sites along x
  // as lanes laid out along x, at every SIMD width): extents, grid and layout named.
  const int lanes = DefaultWidth::lanes<double>;
  if (lanes >= 4) {
    GeometryOptions options;
    options.process_grid = {1, 1, 1, ranks};
    options.simd_layout = {lanes, 1, 1, 1};
    const std::string untiled = error_of<LayoutError>([&] { Geometry({lanes / 2, 4, 4, 4 * ranks}, options); });
    EXPECT_NE(untiled.find("[" + std::to_string(lanes / 2) + " 4 4 " + std::to_string(4 * ranks) + "]"),
              std::string::npos) << untiled;
    EXPECT_NE(untiled.find("SIMD layout [" + std::to_string(lanes) + " 1 1 1]"), std::string::npos) << untiled;
    if (ranks > 1) {
      EXPECT_NE(untiled.find("process grid [1 1 1 " + std::to_string(ranks) + "]"), std::string::npos) << untiled;
    }
  }
  // Fields of different decompositions in one statement.
  const Coordinate grid = default_process_grid(lattice4, ranks);
  const Geometry a = decomposed(lattice4, grid);
  const Geometry b = decomposed(lattice4, grid, {1, 0, 0, 0});
  Lattice<double> fa(a), fb(b);
  const std::string mixed = error_of<GeometryMismatch>([&] { fa = fa + fb; });
  EXPECT_NE(mixed.find("forced communication [1 0 0 0]"), std::string::npos) << mixed;
  if (ranks > 1) {
    const Geometry c = replicated(lattice4);
    Lattice<double> fc(c);
    const std::string with_replicated = error_of<GeometryMismatch>([&] { fa = fc; });
    EXPECT_NE(with_replicated.find("process grid"), std::string::npos) << with_replicated;
  }
}

}  // namespace
}  // namespace latte::testing

