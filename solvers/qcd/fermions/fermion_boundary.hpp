#pragma once
// Fermion boundary conditions: a U(1) phase per direction.
//
// Convention. The fermion field obeys psi(x + L_mu mu^) = e^{i pi theta_mu} psi(x):
// theta_mu = 0 periodic, theta_mu = 1 antiperiodic (the usual choice in the
// time direction, mu = 3, which makes the Euclidean path integral a trace
// over the fermion Fock space), any other real theta_mu a twist. theta is
// given in units of pi, so that the common cases are exact numbers.
// The operator sees the phase through its links: the forward links that
// cross the global boundary in direction mu, U_mu(x) at the sites with
// global coordinate x_mu = L_mu - 1, are multiplied by e^{i pi theta_mu}
// (and the backward hop, which reads U_mu^+(x - mu^), gets e^{-i pi theta_mu}
// with them). Every other link is untouched. On the free field the
// momenta become p_mu = (2 pi n_mu + pi theta_mu) / L_mu.
// The gauge field itself stays periodic: the phase belongs to the fermion
// operator (solvers/qcd/fermions/boundary_links.hpp builds its links).

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace latte {

struct FermionBoundary {
  // theta_mu in units of pi, directions x, y, z, t.
  std::array<double, 4> theta{0.0, 0.0, 0.0, 0.0};

  static FermionBoundary periodic() { return {}; }
  static FermionBoundary antiperiodic_in_time() { return {{0.0, 0.0, 0.0, 1.0}}; }
  static FermionBoundary twisted(double x, double y, double z, double t) { return {{x, y, z, t}}; }

  // theta_mu mod 2, in [0, 2): the phase is the same for theta and theta + 2.
  double reduced(int mu) const {
    const double r = std::fmod(theta[mu], 2.0);
    return r < 0 ? r + 2.0 : r;
  }
  // Whether direction mu needs no phase (theta_mu a multiple of 2).
  bool periodic_in(int mu) const { return reduced(mu) == 0.0; }
  bool is_periodic() const {
    for (int mu = 0; mu < 4; ++mu)
      if (!periodic_in(mu)) return false;
    return true;
  }
  // e^{i pi theta_mu} as {cos, sin}, exact where theta_mu is a multiple of
  // 1/2 (std::cos(pi) is not -1 to the last bit of its sine).
  std::array<double, 2> phase(int mu) const {
    const double r = reduced(mu);
    if (r == 0.0) return {1.0, 0.0};
    if (r == 0.5) return {0.0, 1.0};
    if (r == 1.0) return {-1.0, 0.0};
    if (r == 1.5) return {0.0, -1.0};
    const double pi = 3.14159265358979323846;
    return {std::cos(pi * r), std::sin(pi * r)};
  }

  // "periodic", "antiperiodic in time" or "twisted: theta = (a, b, c, d) pi".
  std::string describe() const {
    if (is_periodic()) return "periodic";
    if (periodic_in(0) && periodic_in(1) && periodic_in(2) && reduced(3) == 1.0) return "antiperiodic in time";
    std::string text = "twisted: theta = (";
    for (int mu = 0; mu < 4; ++mu) text += (mu > 0 ? ", " : "") + shortest_text(theta[mu]);
    return text + ") pi";
  }

  friend bool operator==(const FermionBoundary&, const FermionBoundary&) = default;

 private:
  // The fewest digits that read back as the same double (0.1, not 0.10000000000000001).
  static std::string shortest_text(double x) {
    char number[32];
    for (int digits = 6; digits <= 17; ++digits) {
      std::snprintf(number, sizeof number, "%.*g", digits, x);
      if (std::strtod(number, nullptr) == x) break;
    }
    return number;
  }
};

// "periodic", "antiperiodic" (in time) or "twisted:a,b,c,d" (theta_mu in
// units of pi, x y z t). Anything else throws std::invalid_argument naming
// the text and what is accepted.
inline FermionBoundary parse_fermion_boundary(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument("Latte: fermion boundary '" + text + "' " + why +
                                 "; expected periodic, antiperiodic or twisted:a,b,c,d (theta_mu in units of pi)");
  };
  if (text == "periodic") return FermionBoundary::periodic();
  if (text == "antiperiodic") return FermionBoundary::antiperiodic_in_time();
  const std::string prefix = "twisted:";
  if (text.compare(0, prefix.size(), prefix) != 0) throw bad("is not known");
  std::vector<double> values;
  std::size_t start = prefix.size();
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(item, &used);
    } catch (const std::exception&) {
      throw bad("has '" + item + "' where a number belongs");
    }
    if (used != item.size() || !std::isfinite(value)) throw bad("has '" + item + "' where a number belongs");
    values.push_back(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (values.size() != 4) throw bad("has " + std::to_string(values.size()) + " angles, not 4");
  return FermionBoundary::twisted(values[0], values[1], values[2], values[3]);
}

}  // namespace latte
