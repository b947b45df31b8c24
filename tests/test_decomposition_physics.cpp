// The physics on a lattice spread over ranks gives the very bits of one
// rank: the Wilson Dslash, M and M^+ in both precisions, the even-odd Schur
// operator, 20 CG iterations (the same residual history, bit for bit), and
// 100 lattice-Boltzmann steps of D2Q9 (lid-driven cavity: moving-wall
// bounce-back) and D3Q19 (TRT, body force, an obstacle). Run under mpirun
// with 2, 4 and 16 ranks, and at one rank (forced communication) in the
// ordinary suite.

#include <array>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "decomposition_support.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/io/checkpoint.hpp"
#include "solvers/lbm/walls/boundaries.hpp"
#include "solvers/qcd/solves/wilson_even_odd_solve.hpp"
#include "solvers/qcd/io/nersc_gauge_file.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"

namespace latte::testing {
namespace {

// A random gauge field, the Wilson operator on it and a random spinor.
template <class R>
struct WilsonSetup {
  GaugeField<R> U;
  Lattice<Spinor<R>> psi, out;
  WilsonDirac<R> M;
  explicit WilsonSetup(const Geometry& g) : U(g), psi(g), out(g), M(U, 0.1) {
    ParallelRng rng(31);
    U.set_random(rng);
    rng.gaussian(psi);
  }
};

template <class R>
void expect_wilson_operators_match() {
  WilsonSetup<R> one(replicated(lattice4));
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    WilsonSetup<R> many(g);
    many.M.dslash(many.out, many.psi);
    one.M.dslash(one.out, one.psi);
    EXPECT_TRUE(same_as_one_rank(many.out, one.out)) << "Dslash";
    many.M.apply(many.out, many.psi);
    one.M.apply(one.out, one.psi);
    EXPECT_TRUE(same_as_one_rank(many.out, one.out)) << "M";
    many.M.apply_dagger(many.out, many.psi);
    one.M.apply_dagger(one.out, one.psi);
    EXPECT_TRUE(same_as_one_rank(many.out, one.out)) << "M^+";
    EXPECT_TRUE(same_result(many.M.apply_and_norm2(many.out, many.psi), one.M.apply_and_norm2(one.out, one.psi)))
        << "|M psi|^2";
  });
}

TEST(DecompositionPhysics, WilsonOperatorsDouble) { expect_wilson_operators_match<double>(); }
TEST(DecompositionPhysics, WilsonOperatorsSingle) { expect_wilson_operators_match<float>(); }

// The Schur complement on the even sites of a random gauge field.
struct SchurSetup {
  GaugeField<double> U;
  Lattice<Spinor<double>> psi, out;
  std::unique_ptr<WilsonEvenOdd<double>> schur;
  explicit SchurSetup(const Geometry& g)
      : U(g), psi(g.checkerboard(Parity::even)), out(g.checkerboard(Parity::even)) {
    ParallelRng rng(41);
    U.set_random(rng);
    schur = std::make_unique<WilsonEvenOdd<double>>(U, 0.2);
    rng.gaussian(psi);
  }
};

TEST(DecompositionPhysics, EvenOddSchurOperator) {
  SchurSetup one(replicated(lattice4));
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    SchurSetup many(g);
    many.schur->apply(many.out, many.psi);
    one.schur->apply(one.out, one.psi);
    EXPECT_TRUE(same_as_one_rank(many.out, one.out));
    many.schur->apply_dagger(many.out, many.psi);
    one.schur->apply_dagger(one.out, one.psi);
    EXPECT_TRUE(same_as_one_rank(many.out, one.out));
  });
}

// 20 iterations of CG on M^+ M, stopped by the iteration limit.
template <class Problem>
SolverReport twenty_iterations(Problem& p) {
  try {
    solve_wilson(p.M, p.x, p.b, SolverControl{1e-14, 20});
  } catch (const SolverError& e) {
    return e.report();
  }
  ADD_FAILURE() << "CG converged in fewer than 20 iterations";
  return {};
}

template <class R>
struct Problem {
  GaugeField<R> U;
  WilsonDirac<R> M;
  Lattice<Spinor<R>> b, x;
  explicit Problem(const Geometry& g) : U(g), M(U, 0.05), b(g), x(g) {
    ParallelRng rng(51);
    U.set_random(rng);
    rng.gaussian(b);
    x = zero;
  }
};

TEST(DecompositionPhysics, TwentyCgIterationsHaveTheSameResidualHistory) {
  Problem<double> one(replicated(lattice4));
  const SolverReport reference = twenty_iterations(one);
  ASSERT_EQ(reference.residual_history.size(), 20u);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Problem<double> many(g);
    const SolverReport report = twenty_iterations(many);
    EXPECT_TRUE(same_result(report.residual_history == reference.residual_history, true));
    EXPECT_TRUE(same_as_one_rank(many.x, one.x));
  });
}

// The same with fermion boundary phases: a twist in space and antiperiodic
// time. The phased links are built by statements from each site's global
// coordinate, so they, M, the even-odd operator and 20 CG iterations have
// the bits of one rank.
struct BoundaryProblem {
  static FermionBoundary boundary() { return FermionBoundary::twisted(0.3, 0, -0.5, 1); }
  GaugeField<double> U;
  WilsonDirac<double> M;
  Lattice<Spinor<double>> b, x, out;
  explicit BoundaryProblem(const Geometry& g) : U(g), M(U, 0.05, boundary()), b(g), x(g), out(g) {
    ParallelRng rng(53);
    U.set_random(rng);
    // M was built before U was set: build it again on the random links.
    M = WilsonDirac<double>(U, 0.05, boundary());
    rng.gaussian(b);
    x = zero;
  }
};

TEST(DecompositionPhysics, TwistedAndAntiperiodicBoundaryGivesTheBitsOfOneRank) {
  BoundaryProblem one(replicated(lattice4));
  one.M.apply(one.out, one.b);
  const SolverReport reference = twenty_iterations(one);
  ASSERT_EQ(reference.residual_history.size(), 20u);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    BoundaryProblem many(g);
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(many.M.links()[mu], one.M.links()[mu])) << "links " << mu;
    many.M.apply(many.out, many.b);
    EXPECT_TRUE(same_as_one_rank(many.out, one.out)) << "M";
    const SolverReport report = twenty_iterations(many);
    EXPECT_TRUE(same_result(report.residual_history == reference.residual_history, true));
    EXPECT_TRUE(same_as_one_rank(many.x, one.x));
  });
  // The even-odd solve too (its links are the phased ones split by parity).
  Lattice<Spinor<double>> x_one(one.b.geometry());
  x_one = zero;
  solve_wilson_even_odd(one.M, x_one, one.b, SolverControl{1e-7, 2000});
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    BoundaryProblem many(g);
    solve_wilson_even_odd(many.M, many.x, many.b, SolverControl{1e-7, 2000});
    EXPECT_TRUE(same_as_one_rank(many.x, x_one)) << "even-odd solve";
  });
}

// A random small flow (density 1 +- 0.01, speeds up to 0.05) in equilibrium.
template <class Sim>
void initialise_randomly(Sim& sim, std::uint64_t seed) {
  typename Sim::ScalarField rho(sim.geometry());
  typename Sim::VectorField u(sim.geometry());
  ParallelRng rng(seed);
  rng.uniform(rho, 0.99, 1.01);
  rng.uniform(u, -0.05, 0.05);
  sim.initialise(rho, u);
}

// A flow with the given walls on geometry g, after 100 steps (in place
// when asked: lbm::in_place_streaming).
template <class Sim>
struct HundredSteps {
  Sim sim;
  typename Sim::Boundary walls;
  template <class... Scheme>
  HundredSteps(const Geometry& g, const lbm::Parameters& parameters, const std::function<void(typename Sim::Boundary&)>& mark,
               Scheme... scheme)
      : sim(g, parameters, scheme...), walls(g) {
    walls = zero;
    mark(walls);
    sim.set_boundary(walls);
    initialise_randomly(sim, 61);
    sim.run(100);
  }
};

template <class Sim, class... Scheme>
void expect_hundred_steps_match(const Coordinate& dims, const lbm::Parameters& parameters,
                                std::function<void(typename Sim::Boundary&)> walls, Scheme... scheme) {
  const HundredSteps<Sim> one(replicated(dims), parameters, walls, scheme...);
  for_each_decomposition(dims, [&](const Geometry& g) {
    const HundredSteps<Sim> many(g, parameters, walls, scheme...);
    EXPECT_TRUE(same_as_one_rank(many.sim.populations(), one.sim.populations()));
    EXPECT_TRUE(same_result(many.sim.mass(), one.sim.mass()));
  });
}

TEST(DecompositionPhysics, HundredStepsOfD2Q9LidDrivenCavity) {
  using Sim = lbm::Simulation<lbm::D2Q9, double, lbm::Bgk>;
  const int n = 16;
  expect_hundred_steps_match<Sim>({n, n}, lbm::Parameters{0.6}, [&](Sim::Boundary& b) {
    lbm::mark_solid(b, [&](const Coordinate& x) { return x[0] == 0 || x[0] == n - 1 || x[1] == 0 || x[1] == n - 1; },
                    [&](const Coordinate& x) { return std::array<double, 2>{x[1] == n - 1 ? 0.1 : 0.0, 0.0}; });
  });
}

TEST(DecompositionPhysics, HundredStepsOfD3Q19WithForceAndObstacle) {
  using Sim = lbm::Simulation<lbm::D3Q19, double, lbm::Trt>;
  lbm::Parameters parameters{0.7};
  parameters.force = {1e-5, 0, 2e-6};
  expect_hundred_steps_match<Sim>({16, 8, 16}, parameters, [&](Sim::Boundary& b) {
    lbm::mark_solid(b, [&](const Coordinate& x) {
      return (x[0] - 7) * (x[0] - 7) + (x[2] - 8) * (x[2] - 8) < 9 || x[1] == 0;
    });
  });
}

// In place, a push step sends populations into other ranks' blocks (the
// push's halo, backwards) and reads theirs: the bits of one rank still.
TEST(DecompositionPhysics, HundredInPlaceStepsOfD2Q9LidDrivenCavity) {
  using Sim = lbm::Simulation<lbm::D2Q9, double, lbm::Bgk>;
  const int n = 16;
  expect_hundred_steps_match<Sim>({n, n}, lbm::Parameters{0.6}, [&](Sim::Boundary& b) {
    lbm::mark_solid(b, [&](const Coordinate& x) { return x[0] == 0 || x[0] == n - 1 || x[1] == 0 || x[1] == n - 1; },
                    [&](const Coordinate& x) { return std::array<double, 2>{x[1] == n - 1 ? 0.1 : 0.0, 0.0}; });
  }, lbm::in_place_streaming);
}

TEST(DecompositionPhysics, HundredInPlaceStepsOfD3Q27WithForceAndObstacle) {
  using Sim = lbm::Simulation<lbm::D3Q27, double, lbm::Trt>;
  lbm::Parameters parameters{0.7};
  parameters.force = {1e-5, 0, 2e-6};
  expect_hundred_steps_match<Sim>({16, 8, 16}, parameters, [&](Sim::Boundary& b) {
    lbm::mark_solid(b, [&](const Coordinate& x) {
      return (x[0] - 7) * (x[0] - 7) + (x[2] - 8) * (x[2] - 8) < 9 || x[1] == 0;
    });
  }, lbm::in_place_streaming);
}

}  // namespace
}  // namespace latte::testing
