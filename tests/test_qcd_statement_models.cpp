// The Wilson operators' models derived from their expressions
// (dsl/expr/statement_model.hpp) against the figures the field writes by hand:
// Dslash 1320 flops per site, M 1392, the even-odd hopping term 192 reals.

#include "solvers/qcd/fermions/wilson_dirac.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

// The derived flops and bytes of everything `statements` runs.
template <class Statements>
std::pair<double, double> derived(Statements&& statements) {
  profile::ModelCapture capture;
  statements();
  return {capture.flops, capture.bytes};
}

template <class R>
void expect_wilson_models() {
  const Geometry geometry({4, 4, 4, 8});
  GaugeField<R> U(geometry);
  U.set_unit();
  Lattice<Spinor<R>> psi(geometry), chi(geometry);
  psi = zero;
  const double sites = static_cast<double>(geometry.volume());
  const WilsonDirac<R> M(U, 0.1);

  // Whole lattice: each link field is read once, at x and at x - mu alike.
  const StatementModel dslash = statement_model(chi, as_node(wilson_hopping<+1>(U, psi)), AssignSet{});
  EXPECT_EQ(dslash.flops_per_site, 1320);
  EXPECT_EQ(dslash.flops_per_site, WilsonDirac<R>::dslash_flops_per_site);
  EXPECT_EQ(dslash.bytes_per_site, (4 * 18 + 24 + 24) * sizeof(R));
  EXPECT_EQ(derived([&] { M.dslash(chi, psi); }).first / sites, 1320);
  EXPECT_EQ(derived([&] { M.dslash_dagger(chi, psi); }).first / sites, 1320);
  EXPECT_EQ(derived([&] { M.apply(chi, psi); }).first / sites, 1392);
  EXPECT_EQ(derived([&] { M.apply(chi, psi); }).first / sites, WilsonDirac<R>::flops_per_site);

  // Even-odd: the links of the two checkerboards are fields of their own,
  // so the hopping term reads 8 links, 1 spinor and writes 1: 192 reals.
  const WilsonEvenOdd<R> schur(U, 0.1);
  Lattice<Spinor<R>> psi_odd(schur.odd_geometry()), chi_even(schur.geometry());
  psi_odd = zero;
  const StatementModel hopping =
      statement_model(chi_even, as_node(schur.template hopping_to_even<+1>(psi_odd)), AssignSet{});
  EXPECT_EQ(hopping.flops_per_site, 1320);
  EXPECT_EQ(hopping.bytes_per_site, 192 * sizeof(R));
  EXPECT_EQ(hopping.sites, sites / 2);
  // Mhat: two hopping terms and A in - c h, per even site.
  Lattice<Spinor<R>> out(schur.geometry());
  chi_even = zero;
  EXPECT_EQ(derived([&] { schur.apply(out, chi_even); }).first / (sites / 2), WilsonEvenOdd<R>::flops_per_site);
  EXPECT_EQ(WilsonEvenOdd<R>::flops_per_site, 2 * 1320 + 72);
}

TEST(StatementModel, WilsonOperatorsDouble) { expect_wilson_models<double>(); }
TEST(StatementModel, WilsonOperatorsSingle) { expect_wilson_models<float>(); }

}  // namespace
}  // namespace latte::testing
