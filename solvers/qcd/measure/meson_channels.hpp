#pragma once
// Meson channels: which Dirac matrices stand at the source and the sink of
// a two-point function, and the names and quantum numbers of the 16
// bilinears dbar Gamma(n) u (Gamma(n): solvers/qcd/measure/dirac_matrices.hpp).
//
// Quantum numbers, from the matrices: under parity psi -> gamma_4 psi(-x),
// psibar Gamma psi -> psibar gamma_4 Gamma gamma_4 psi, so P is the sign
// in gamma_4 Gamma gamma_4 = P Gamma; under charge conjugation
// psibar Gamma psi -> psibar C Gamma^T C^-1 psi, so C is the sign in
// C Gamma^T C^-1 = C Gamma (for a flavoured meson, that of its neutral
// partner). J is 0 for 1, gamma_5, gamma_4 gamma_5 and gamma_4, and 1 for
// the spatial-vector bilinears (component i of a vector carries the
// P of the state). tests/test_dirac_matrices.cpp recomputes P and C from
// the matrices for every row of the table:
//
//    n  Gamma(n)         ~ the usual form     name      J^PC
//    0  1                                     a0        0++
//    1  gamma_1                               rho_x     1--
//    2  gamma_2                               rho_y     1--
//    3  gamma_1 gamma_2  ~ gamma_3 gamma_4 gamma_5  b1_z  1+-
//    4  gamma_3                               rho_z     1--
//    5  gamma_1 gamma_3  ~ gamma_2 gamma_4 gamma_5  b1_y  1+-
//    6  gamma_2 gamma_3  ~ gamma_1 gamma_4 gamma_5  b1_x  1+-
//    7  gamma_1 gamma_2 gamma_3 ~ gamma_4 gamma_5  pion_2  0-+
//    8  gamma_4                               b0        0+-  (exotic)
//    9  gamma_1 gamma_4                       rho_2_x   1--
//   10  gamma_2 gamma_4                       rho_2_y   1--
//   11  gamma_1 gamma_2 gamma_4 ~ gamma_3 gamma_5  a1_z  1++
//   12  gamma_3 gamma_4                       rho_2_z   1--
//   13  gamma_1 gamma_3 gamma_4 ~ gamma_2 gamma_5  a1_y  1++
//   14  gamma_2 gamma_3 gamma_4 ~ gamma_1 gamma_5  a1_x  1++
//   15  gamma_5                               pion      0-+
//
// (~: equal up to a sign or a factor i, which cancels in a diagonal
// channel.)

#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/qcd/measure/dirac_matrices.hpp"

namespace latte {

struct MesonQuantumNumbers {
  const char* name;
  int J;
  int P;  // +1 or -1
  int C;
};

inline constexpr MesonQuantumNumbers meson_table[dirac_matrix_count] = {
    {"a0", 0, +1, +1},      {"rho_x", 1, -1, -1},   {"rho_y", 1, -1, -1},   {"b1_z", 1, +1, -1},
    {"rho_z", 1, -1, -1},   {"b1_y", 1, +1, -1},    {"b1_x", 1, +1, -1},    {"pion_2", 0, -1, +1},
    {"b0", 0, +1, -1},      {"rho_2_x", 1, -1, -1}, {"rho_2_y", 1, -1, -1}, {"a1_z", 1, +1, +1},
    {"rho_2_z", 1, -1, -1}, {"a1_y", 1, +1, +1},    {"a1_x", 1, +1, +1},    {"pion", 0, -1, +1}};

// Named indices n of Gamma(n).
namespace gamma_index {
inline constexpr int a0 = 0, rho_x = 1, rho_y = 2, b1_z = 3, rho_z = 4, b1_y = 5, b1_x = 6, pion_2 = 7, b0 = 8,
                     rho_2_x = 9, rho_2_y = 10, a1_z = 11, rho_2_z = 12, a1_y = 13, a1_x = 14, pion = 15;
}

// "0-+" and the like.
inline std::string quantum_numbers_text(int n) {
  const MesonQuantumNumbers& q = meson_table[n];
  return std::to_string(q.J) + (q.P > 0 ? "+" : "-") + (q.C > 0 ? "+" : "-");
}

// The operator dbar Gamma(sink) u at the sink, its adjoint
// ubar Gammabar(source) d at the source.
struct MesonChannel {
  int source = gamma_index::pion;
  int sink = gamma_index::pion;
  friend bool operator==(const MesonChannel&, const MesonChannel&) = default;
};

// "pion" for a diagonal channel, "pion_2-pion" (source-sink) otherwise.
inline std::string channel_name(const MesonChannel& channel) {
  if (channel.source == channel.sink) return meson_table[channel.sink].name;
  return std::string(meson_table[channel.source].name) + "-" + meson_table[channel.sink].name;
}

// The 16 diagonal channels, n = 0..15.
inline std::vector<MesonChannel> diagonal_meson_channels() {
  std::vector<MesonChannel> channels;
  for (int n = 0; n < dirac_matrix_count; ++n) channels.push_back({n, n});
  return channels;
}

inline void check_meson_channel(const MesonChannel& channel) {
  const auto bad = [](int n) { return n < 0 || n >= dirac_matrix_count; };
  if (bad(channel.source) || bad(channel.sink))
    throw std::invalid_argument("Latte: meson channel (source " + std::to_string(channel.source) + ", sink " +
                                std::to_string(channel.sink) + ") names no Dirac matrix Gamma(n), n = 0..15");
}

}  // namespace latte
