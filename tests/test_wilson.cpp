// The Wilson Dirac operator (solvers/qcd/fermions/wilson_dirac.hpp) against physics:
// a naive site-by-site reference, gamma_5-hermiticity, gauge covariance, the
// free-field spectrum, and agreement across SIMD layouts and backends.

#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <numbers>

#include "eigen_conversions.hpp"
#include "solvers/qcd/fermions/wilson_dirac.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

constexpr double mass = 0.1;
Eigen::Matrix4cd dense_gamma(int mu) {
  const SpinMatrix<double> g = mu == 0 ? gamma_matrix<0>() : mu == 1 ? gamma_matrix<1>() : mu == 2 ? gamma_matrix<2>()
                                                                                                     : gamma_matrix<3>();
  return to_eigen(g);
}

class Wilson : public ::testing::Test {
 protected:
  Geometry geometry{{4, 4, 4, 8}};
  GaugeField<double> U{geometry};
  Lattice<Spinor<double>> psi{geometry}, chi{geometry};
  void SetUp() override {
    ParallelRng rng(31);
    U.set_random(rng);
    rng.gaussian(psi);
    rng.gaussian(chi);
  }
};

TEST_F(Wilson, DslashEqualsNaiveSiteBySiteReference) {
  WilsonDirac<double> M(U, mass);
  Lattice<Spinor<double>> out(geometry);
  M.dslash(out, psi);
  const Eigen::Matrix4cd one = Eigen::Matrix4cd::Identity();
  EXPECT_TRUE(field_matches(out, [&](const Coordinate& x) {
    SpinColour acc = SpinColour::Zero();
    for (int mu = 0; mu < 4; ++mu) {
      const Coordinate forward = displaced(x, unit_displacement(4, mu, +1), geometry.dims());
      const Coordinate backward = displaced(x, unit_displacement(4, mu, -1), geometry.dims());
      // psi is spin x colour: the link acts from the right on the transpose.
      acc += (one - dense_gamma(mu)) * to_eigen(peek(psi, forward)) * to_eigen(peek(U[mu], x)).transpose();
      acc += (one + dense_gamma(mu)) * to_eigen(peek(psi, backward)) * to_eigen(peek(U[mu], backward)).conjugate();
    }
    return from_eigen(acc);
  }, 1e-13));
}

TEST_F(Wilson, Gamma5Hermiticity) {
  // <chi, gamma5 M gamma5 psi> = <M chi, psi>
  WilsonDirac<double> M(U, mass);
  Lattice<Spinor<double>> g5psi(geometry), Mg5psi(geometry), Mchi(geometry), dagger_psi(geometry);
  g5psi = gamma5(psi);
  M.apply(Mg5psi, g5psi);
  M.apply(Mchi, chi);
  const ComplexD left = innerProduct(chi, gamma5(Mg5psi));
  const ComplexD right = innerProduct(Mchi, psi);
  const double scale = std::sqrt(norm2(chi) * norm2(psi));
  EXPECT_NEAR(left.re, right.re, 1e-13 * scale);
  EXPECT_NEAR(left.im, right.im, 1e-13 * scale);
  // and apply_dagger is that adjoint
  M.apply_dagger(dagger_psi, psi);
  const ComplexD adjoint = innerProduct(chi, dagger_psi);
  EXPECT_NEAR(adjoint.re, right.re, 1e-13 * scale);
  EXPECT_NEAR(adjoint.im, right.im, 1e-13 * scale);
}

TEST_F(Wilson, GaugeCovariance) {
  // M[U^g] (g psi) = g (M[U] psi),  U^g_mu(x) = g(x) U_mu(x) g^+(x + mu)
  Lattice<ColourMatrix<double>> g(geometry);
  ParallelRng rng(77);
  rng.fill(g, [](SiteRandomStream& random) { return random_su3(random); });
  GaugeField<double> Ug(geometry);
  for (int mu = 0; mu < 4; ++mu) Ug[mu] = U[mu];
  gauge_transform(Ug, g);

  Lattice<Spinor<double>> g_psi(geometry), left(geometry), M_psi(geometry), right(geometry);
  g_psi = g * psi;
  WilsonDirac<double>(Ug, mass).apply(left, g_psi);
  WilsonDirac<double>(U, mass).apply(M_psi, psi);
  right = g * M_psi;
  EXPECT_TRUE(fields_near(left, right, 1e-13));
  EXPECT_NEAR(average_plaquette(Ug), average_plaquette(U), 1e-14);
}

TEST_F(Wilson, FreeFieldPlaneWavesAreEigenvectors) {
  // U = 1, psi(x) = exp(i p.x) u:  M psi = M(p) psi with
  // M(p) = m + sum_mu (1 - cos p_mu) + i sum_mu gamma_mu sin p_mu (periodic: p_mu = 2 pi n_mu / L_mu).
  U.set_unit();
  WilsonDirac<double> M(U, mass);
  const Spinor<double> u = peek(chi, {0, 0, 0, 0});
  for (const Coordinate& n : {Coordinate{0, 0, 0, 0}, Coordinate{1, 0, 0, 0}, Coordinate{1, 2, 3, 5},
                              Coordinate{2, 1, 0, 7}}) {
    double p[4];
    for (int mu = 0; mu < 4; ++mu) p[mu] = 2 * std::numbers::pi * n[mu] / geometry.dims()[mu];
    Eigen::Matrix4cd Mp = Eigen::Matrix4cd::Identity() * mass;
    for (int mu = 0; mu < 4; ++mu) {
      Mp += Eigen::Matrix4cd::Identity() * (1 - std::cos(p[mu]));
      Mp += std::complex<double>(0, std::sin(p[mu])) * dense_gamma(mu);
    }
    auto phase = [&](const Coordinate& x) {
      double px = 0;
      for (int mu = 0; mu < 4; ++mu) px += p[mu] * x[mu];
      return std::complex<double>(std::cos(px), std::sin(px));
    };
    Lattice<Spinor<double>> wave(geometry), Mwave(geometry);
    for_each_coordinate(geometry, [&](const Coordinate& x) { poke(wave, x, from_eigen(phase(x) * to_eigen(u))); });
    M.apply(Mwave, wave);
    const SpinColour eigen_u = Mp * to_eigen(u);
    EXPECT_TRUE(field_matches(Mwave, [&](const Coordinate& x) { return from_eigen(phase(x) * eigen_u); }, 1e-13))
        << "momentum " << to_string(n);
  }
}

TEST_F(Wilson, SameResultOnEveryLayoutAndBackend) {
  GaugeField<double, ScalarWidth> U_scalar(geometry);
  Lattice<Spinor<double>, ScalarWidth> psi_scalar(geometry), out_scalar(geometry);
  ParallelRng rng(31);  // the same streams as SetUp
  U_scalar.set_random(rng);
  rng.gaussian(psi_scalar);
  WilsonDirac<double, ScalarWidth>(U_scalar, mass).apply(out_scalar, psi_scalar);

  Lattice<Spinor<double>> out(geometry), out_lanes(geometry);
  WilsonDirac<double>(U, mass).apply(out, psi);
  assign<backend::Simt>(out_lanes, (4.0 + mass) * psi - 0.5 * wilson_hopping<+1>(U, psi), AssignSet{});
  EXPECT_TRUE(fields_near(out, out_scalar, 1e-14));
  EXPECT_TRUE(fields_near(out, out_lanes, 1e-14));
}

TEST_F(Wilson, SinglePrecisionFollowsDouble) {
  GaugeField<float> U_float(geometry);
  Lattice<Spinor<float>> psi_float(geometry), out_float(geometry);
  ParallelRng rng(31);
  U_float.set_random(rng);
  rng.gaussian(psi_float);
  WilsonDirac<float>(U_float, mass).apply(out_float, psi_float);
  Lattice<Spinor<double>> out(geometry);
  WilsonDirac<double>(U, mass).apply(out, psi);
  for_each_coordinate(geometry, [&](const Coordinate& x) {
    const Spinor<float> single = peek(out_float, x);
    const Spinor<double> twice = peek(out, x);
    for_each_leaf([&](float s, double d) { EXPECT_NEAR(s, d, 2e-5 * (1 + std::abs(d))); }, single, twice);
  });
}

TEST(GaugeField, UnitAndRandomLinks) {
  Geometry geometry({4, 4, 4, 4});
  GaugeField<double> U(geometry);
  U.set_unit();
  EXPECT_DOUBLE_EQ(average_plaquette(U), 1.0);
  ParallelRng rng(8);
  U.set_random(rng);
  // Random links are special unitary.
  for (const Coordinate& x : {Coordinate{0, 0, 0, 0}, Coordinate{1, 2, 3, 0}, Coordinate{3, 3, 3, 3}})
    for (int mu = 0; mu < 4; ++mu) {
      const Eigen::Matrix3cd u = to_eigen(peek(U[mu], x));
      EXPECT_LT((u * u.adjoint() - Eigen::Matrix3cd::Identity()).norm(), 1e-14);
      EXPECT_LT(std::abs(u.determinant() - 1.0), 1e-14);
    }
  // Hot start: 1536 independent plaquettes of variance 1/18 average to 0
  // within a few of their standard deviation 0.006.
  EXPECT_LT(std::abs(average_plaquette(U)), 0.03);
}

TEST(GaugeField, NeedsFourDimensions) {
  EXPECT_THROW(GaugeField<double>(Geometry({4, 4, 4})), LayoutError);
}

}  // namespace
}  // namespace latte::testing
