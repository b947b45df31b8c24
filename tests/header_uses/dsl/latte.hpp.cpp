// dsl/latte.hpp alone: the README's first example.
#include "dsl/latte.hpp"

void use_latte() {
  using namespace latte;
  Geometry lattice({4, 4, 4, 8});
  Lattice<ColourMatrix<double>> U(lattice);
  Lattice<Spinor<double>> psi(lattice), chi(lattice);
  ParallelRng rng(2024);
  rng.gaussian(U);
  rng.gaussian(psi);
  chi = U * shift(psi, 0, +1) + adj(shift(U, 3, -1)) * shift(psi, 3, -1) - 0.5 * psi;
  [[maybe_unused]] double n = norm2(chi - psi);
  [[maybe_unused]] ComplexD z = innerProduct(psi, chi);
}
