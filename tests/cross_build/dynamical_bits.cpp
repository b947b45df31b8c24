// A short dynamical two-flavour clover chain (two trajectories), the same
// pair with a strange quark by the rational HMC (2+1 flavours, two
// trajectories: the multi-shift solves of heatbath, action and force), and
// one clover even-odd solve, printed bit for bit (hexadecimal floats: dH,
// plaquette and CG iterations of every trajectory, the solve's iterations
// and the norm of its solution), so that builds of different SIMD widths and
// backends, thread counts and rank counts can be compared
// (compare_reduction_bits.sh dynamical_bits). Not part of the test suite:
// each comparison needs several builds.
#include <cstdio>

#include "solvers/qcd/solves/clover_solve.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"
#include "solvers/qcd/update/rational_monomial.hpp"
#include "tests/rational_test_approximations.hpp"

using namespace latte;

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Geometry lattice({8, 8, 8, 8});
  GaugeField<double> U(lattice);
  {
    AlgebraField<double> x(lattice);
    refresh_momenta(x, 5);
    for (int mu = 0; mu < 4; ++mu) U[mu] = su3_exp(0.3 * x[mu]);
  }
  const FermionBoundary boundary = FermionBoundary::antiperiodic_in_time();
  {
    const CloverDirac<double> M(U, 0.1, 1.2, boundary);
    const CloverEvenOdd<double> schur(M);
    Lattice<Spinor<double>> x(lattice), b(lattice);
    ParallelRng(7).gaussian(b);
    const SolverReport report = solve_clover_even_odd(schur, M, x, b, SolverControl{1e-8, 10000, false});
    const double x_norm = norm2(x);  // a reduction over every rank: not inside the root's branch
    if (environment.is_root()) std::printf("clover solve: %d iterations, |x|^2 %a\n", report.iterations, x_norm);
  }
  GaugeMonomial<double> gauge(GaugeAction::wilson(5.6));
  // Heavy quarks and short trajectories keep the scalar build's runs short;
  // the first trajectory is accepted without the test, so the second starts
  // from links the first has moved.
  const CloverParameters clover{0.5, 1.0, boundary};
  TwoFlavourMonomial<CloverAction<double>> quarks(lattice, clover, true);
  CloverDeterminantMonomial<double> det(clover);
  MolecularDynamics<double> md({{IntegratorScheme::leapfrog, 1, {&quarks, &det}}, {IntegratorScheme::leapfrog, 2, {&gauge}}});
  HybridMonteCarlo<double> hmc(U, md, {&quarks, &det, &gauge}, {0.2, 2027, true, 1});
  for (int i = 0; i < 2; ++i) {
    const long before = quarks.tally().iterations;
    const TrajectoryRecord r = hmc.trajectory();
    if (environment.is_root())
      std::printf("trajectory %d: dH %a plaquette %a accepted %d CG %ld\n", i, r.delta_h, r.plaquette,
                  r.accepted ? 1 : 0, quarks.tally().iterations - before);
  }
  // 2+1: the strange quark (m = 0.7) as one rational pseudofermion with its
  // one-flavour clover log det, on the outer time scale with the pair.
  const CloverParameters strange_clover{0.7, 1.0, boundary};
  RationalMonomial<CloverAction<double>> strange(lattice, strange_clover, true, testing::rational_test_approximations(1, 1));
  CloverDeterminantMonomial<double> strange_det(strange_clover, 1.0);
  MolecularDynamics<double> md_two_plus_one({{IntegratorScheme::leapfrog, 1, {&quarks, &det, &strange, &strange_det}},
                                             {IntegratorScheme::leapfrog, 2, {&gauge}}});
  HybridMonteCarlo<double> two_plus_one(U, md_two_plus_one, {&quarks, &det, &strange, &strange_det, &gauge},
                                        {0.2, 2028, true, 1});
  for (int i = 0; i < 2; ++i) {
    const long before = strange.tally().iterations;
    const TrajectoryRecord r = two_plus_one.trajectory();
    if (environment.is_root())
      std::printf("2+1 trajectory %d: dH %a plaquette %a accepted %d multi-shift CG %ld\n", i, r.delta_h, r.plaquette,
                  r.accepted ? 1 : 0, strange.tally().iterations - before);
  }
}
