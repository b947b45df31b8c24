// The forces of two-flavour pseudofermions and of the clover log det
// (solvers/qcd/update/pseudofermion_monomial.hpp) against the numerical derivative
// of their actions: Wilson and clover, with and without even-odd
// preconditioning, with antiperiodic and twisted boundaries. The central
// difference of S along a random su(3) direction must approach the
// derivative the force predicts as eps^2, and its extrapolation to eps = 0
// meet it.

#include <cmath>
#include <memory>
#include <vector>

#include "hmc_test_support.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// A rough but not wild field: exp(0.35 X) with gaussian X on every link,
// where the clover term at c_sw = 1.5, m = 0.2 stays positive definite.
void moderately_rough_field(GaugeField<double>& U, std::uint64_t seed) { rough_gauge_field(U, seed, 0.35); }

class FermionForce : public ::testing::Test {
 protected:
  // hmc_test_support.hpp: the central differences of S against the force.
  void expect_force_is_derivative(Monomial<double>& monomial, const char* name) {
    expect_force_is_derivative_of_action(monomial, U, name);
  }

  Geometry geometry{{4, 4, 4, 4}};
  GaugeField<double> U{geometry};
  PseudofermionSolves tight{{1e-13, 100000, false}, {1e-13, 100000, false}};
};

TEST_F(FermionForce, WilsonPseudofermionForceIsTheDerivativeOfItsAction) {
  moderately_rough_field(U, 17);
  const WilsonParameters fermions{0.2, FermionBoundary::antiperiodic_in_time()};
  for (const bool even_odd : {false, true}) {
    TwoFlavourMonomial<WilsonAction<double>> monomial(geometry, fermions, even_odd, tight);
    expect_force_is_derivative(monomial, even_odd ? "Wilson, even-odd" : "Wilson");
  }
  // A U(1) twist in every direction exercises complex boundary phases.
  const WilsonParameters twisted{0.2, FermionBoundary::twisted(0.3, 0.5, 0.7, 1.0)};
  TwoFlavourMonomial<WilsonAction<double>> monomial(geometry, twisted, true, tight);
  expect_force_is_derivative(monomial, "Wilson, twisted, even-odd");
}

TEST_F(FermionForce, CloverPseudofermionForceIsTheDerivativeOfItsAction) {
  moderately_rough_field(U, 18);
  // Antiperiodic in time; twisted in every direction without even-odd.
  const CloverParameters antiperiodic{0.2, 1.5, FermionBoundary::antiperiodic_in_time()};
  const CloverParameters twisted{0.2, 1.5, FermionBoundary::twisted(0.3, 0.5, 0.7, 1.0)};
  TwoFlavourMonomial<CloverAction<double>> even_odd(geometry, antiperiodic, true, tight);
  expect_force_is_derivative(even_odd, "clover, antiperiodic, even-odd");
  TwoFlavourMonomial<CloverAction<double>> whole(geometry, twisted, false, tight);
  expect_force_is_derivative(whole, "clover, twisted");
}

TEST_F(FermionForce, CloverLogDeterminantForceIsTheDerivativeOfItsAction) {
  moderately_rough_field(U, 19);
  CloverDeterminantMonomial<double> monomial(CloverParameters{0.2, 1.5});
  expect_force_is_derivative(monomial, "clover log det");
}

// -2 sum_{x odd} log det T(x) against the determinant of the dense 12 x 12
// T at one odd site, written out from the stored blocks by hand.
TEST_F(FermionForce, CloverLogDeterminantIsTheLogOfTheDenseDeterminant) {
  moderately_rough_field(U, 20);
  const CloverTerm<double> term(U, 0.2, 1.5);
  const Coordinate x{1, 0, 0, 0};
  const CloverSite<double> site = peek(term.term(), x);
  double log_det = 0;
  for (int b = 0; b < 2; ++b) {
    // Gaussian elimination with partial pivoting on the dense hermitian block.
    std::complex<double> a[6][6];
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        if (i == j) a[i][j] = site.v[b].v[i];
        else if (i > j) a[i][j] = {clover::lower(site.v[b], i, j).re, clover::lower(site.v[b], i, j).im};
        else a[i][j] = std::conj(std::complex<double>(clover::lower(site.v[b], j, i).re, clover::lower(site.v[b], j, i).im));
      }
    std::complex<double> det = 1;
    for (int k = 0; k < 6; ++k) {
      int p = k;
      for (int i = k + 1; i < 6; ++i)
        if (std::abs(a[i][k]) > std::abs(a[p][k])) p = i;
      if (p != k) {
        for (int j = 0; j < 6; ++j) std::swap(a[k][j], a[p][j]);
        det = -det;
      }
      det *= a[k][k];
      for (int i = k + 1; i < 6; ++i) {
        const std::complex<double> f = a[i][k] / a[k][k];
        for (int j = k; j < 6; ++j) a[i][j] -= f * a[k][j];
      }
    }
    EXPECT_NEAR(det.imag(), 0.0, 1e-10 * std::abs(det));
    log_det += std::log(det.real());
  }
  Lattice<double> density(geometry);
  density = map(functors::CloverLogDeterminant{}, term.term());
  EXPECT_NEAR(peek(density, x), log_det, 1e-12 * std::abs(log_det));
}

}  // namespace
}  // namespace latte::testing
