// solvers/krylov/conjugate_gradient.hpp alone: CG on a diagonal operator.
#include "solvers/krylov/conjugate_gradient.hpp"

namespace {
struct Scale {
  using Field = latte::Lattice<double>;
  double flops_per_site = 1;
  void apply(Field& out, const Field& in) const { out = 2.0 * in; }
};
}  // namespace

void use_conjugate_gradient() {
  latte::Geometry geometry({4, 4, 4, 8});
  latte::Lattice<double> x(geometry), b(geometry);
  b = latte::zero;
  x = latte::zero;
  latte::conjugate_gradient(Scale{}, x, b, latte::SolverControl{1e-10, 100});
}
