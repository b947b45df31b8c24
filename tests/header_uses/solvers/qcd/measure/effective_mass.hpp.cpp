// solvers/qcd/measure/effective_mass.hpp alone: both effective masses of a correlator.
#include "solvers/qcd/measure/effective_mass.hpp"

void use_effective_mass() {
  const std::vector<double> C = {4.0, 2.0, 1.5, 2.0};
  [[maybe_unused]] std::vector<double> cosh_mass = latte::effective_mass(C);
  [[maybe_unused]] std::vector<double> log_mass = latte::log_effective_mass(C);
}
