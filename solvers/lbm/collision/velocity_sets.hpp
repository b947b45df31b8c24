#pragma once
// Lattice-Boltzmann velocity sets DdQq.
//
// Conventions used by every file in solvers/lbm (lattice units: the lattice
// spacing and the time step are 1):
//   - speed of sound c_s^2 = 1/3 for all the flow's sets here (D2Q5 and D3Q7,
//     for a transported scalar, state their own cs2 below);
//   - kinematic viscosity nu = c_s^2 (tau - 1/2) = (tau - 1/2) / 3, with tau
//     the relaxation time of the BGK collision (omega = 1 / tau);
//   - population 0 is the rest population (c_0 = 0), and opposite[i] is the
//     index of -c_i;
//   - the pull scheme: f_i(x, t + 1) is collided from f_i(x - c_i, t).
// The velocities and weights are those of Qian, d'Humieres & Lallemand (1992).

#include <array>

namespace latte::lbm {

// The opposite of every velocity, found once at compile time (it must exist:
// the sets are symmetric).
template <int D, int Q>
constexpr std::array<int, Q> opposite_directions(const int (&c)[Q][D]) {
  std::array<int, Q> opposite{};
  for (int i = 0; i < Q; ++i) {
    opposite[i] = -1;
    for (int j = 0; j < Q; ++j) {
      bool negated = true;
      for (int d = 0; d < D; ++d) negated = negated && c[j][d] == -c[i][d];
      if (negated) opposite[i] = j;
    }
  }
  return opposite;
}

struct D2Q9 {
  static constexpr int d = 2;
  static constexpr int q = 9;
  static constexpr const char* name = "D2Q9";
  static constexpr int c[q][d] = {{0, 0},  {1, 0},  {0, 1},   {-1, 0}, {0, -1},
                                  {1, 1},  {-1, 1}, {-1, -1}, {1, -1}};
  static constexpr double w[q] = {4.0 / 9,  1.0 / 9,  1.0 / 9,  1.0 / 9, 1.0 / 9,
                                  1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36};
  static constexpr std::array<int, q> opposite = opposite_directions<d, q>(c);
};

struct D3Q19 {
  static constexpr int d = 3;
  static constexpr int q = 19;
  static constexpr const char* name = "D3Q19";
  static constexpr int c[q][d] = {{0, 0, 0},
                                  {1, 0, 0},  {-1, 0, 0}, {0, 1, 0},  {0, -1, 0}, {0, 0, 1},  {0, 0, -1},
                                  {1, 1, 0},  {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0},
                                  {1, 0, 1},  {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1},
                                  {0, 1, 1},  {0, -1, -1}, {0, 1, -1}, {0, -1, 1}};
  static constexpr double w[q] = {1.0 / 3,
                                  1.0 / 18, 1.0 / 18, 1.0 / 18, 1.0 / 18, 1.0 / 18, 1.0 / 18,
                                  1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36,
                                  1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36};
  static constexpr std::array<int, q> opposite = opposite_directions<d, q>(c);
};

namespace detail {
struct D3Q27Table {
  int c[27][3];
  double w[27];
};
// Rest, 6 faces (2/27), 12 edges (1/54), 8 corners (1/216), in that order.
constexpr D3Q27Table make_d3q27() {
  D3Q27Table t{};
  int n = 0;
  for (int norm = 0; norm <= 3; ++norm)
    for (int z = -1; z <= 1; ++z)
      for (int y = -1; y <= 1; ++y)
        for (int x = -1; x <= 1; ++x) {
          if (x * x + y * y + z * z != norm) continue;
          t.c[n][0] = x;
          t.c[n][1] = y;
          t.c[n][2] = z;
          t.w[n] = norm == 0 ? 8.0 / 27 : norm == 1 ? 2.0 / 27 : norm == 2 ? 1.0 / 54 : 1.0 / 216;
          ++n;
        }
  return t;
}
inline constexpr D3Q27Table d3q27_table = make_d3q27();
}  // namespace detail

struct D3Q27 {
  static constexpr int d = 3;
  static constexpr int q = 27;
  static constexpr const char* name = "D3Q27";
  static constexpr auto c = detail::d3q27_table.c;
  static constexpr auto w = detail::d3q27_table.w;
  static constexpr std::array<int, q> opposite = opposite_directions<d, q>(detail::d3q27_table.c);
};

// Sets for a scalar transported by the flow (a temperature, a concentration:
// solvers/lbm/thermal/advection_diffusion.hpp). An advection-diffusion equation needs only the
// zeroth, first and second moments of its equilibrium to be isotropic
// (sum w = 1, sum w c = 0, sum w c_a c_b = cs2 delta_ab), so the 2d + 1
// velocities {0, +-e_a} suffice. With rest weight w_0 and w_i = (1 - w_0) / (2d)
// on the others, sum w c_a c_a = 2 w_i, so cs2 = (1 - w_0) / d. Each set
// states its own cs2: it sets the diffusivity alpha = cs2 (tau - 1/2).
//   D2Q5: w_0 = 1/3, w_i = 1/6, cs2 = 1/3 (the flow's value).
//   D3Q7: w_0 = 1/4, w_i = 1/8, cs2 = 1/4 (the usual choice; cs2 = 1/3 would
//         need w_0 = 0, a set without its rest population).
struct D2Q5 {
  static constexpr int d = 2;
  static constexpr int q = 5;
  static constexpr const char* name = "D2Q5";
  static constexpr int c[q][d] = {{0, 0}, {1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  static constexpr double w[q] = {1.0 / 3, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6};
  static constexpr double cs2 = 1.0 / 3;
  static constexpr std::array<int, q> opposite = opposite_directions<d, q>(c);
};

struct D3Q7 {
  static constexpr int d = 3;
  static constexpr int q = 7;
  static constexpr const char* name = "D3Q7";
  static constexpr int c[q][d] = {{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  static constexpr double w[q] = {1.0 / 4, 1.0 / 8, 1.0 / 8, 1.0 / 8, 1.0 / 8, 1.0 / 8, 1.0 / 8};
  static constexpr double cs2 = 1.0 / 4;
  static constexpr std::array<int, q> opposite = opposite_directions<d, q>(c);
};

inline constexpr double cs2 = 1.0 / 3.0;  // speed of sound squared, lattice units

inline constexpr double viscosity_from_tau(double tau) { return (tau - 0.5) / 3.0; }
inline constexpr double tau_from_viscosity(double nu) { return 3.0 * nu + 0.5; }

}  // namespace latte::lbm
