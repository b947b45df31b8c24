#pragma once
// The checks a reader makes of the links it read against what the file
// says of them: checksums, averages (link trace, plaquette) and unitarity.
// Each refuses the file with a GaugeFileError saying what the links give
// and what the file states (gauge_file_error.hpp's refuse_corrupt).
//
// A comparison of reals passes only when both are finite and agree: a NaN
// or an infinity where a finite average is expected fails the check (a
// plain `difference > tolerance` would let a NaN through, every comparison
// with NaN being false), and its message says the number is not finite.
//
// Every reader first refuses links that hold a NaN or an infinity
// (NonFiniteLinks, below), on the reals as read, before any checksum or
// average: a checksum is computed on the stored bits and passes a NaN that
// was written as one, and a format may state no average at all (MILC
// states none, ILDG may omit both), so no other check would see it.
//
// The link trace is checked on the reals as read, before anything is
// stored, so a file failing it leaves the field as it was; the plaquette
// needs the whole field, and a file failing it has been read into the field
// when the error is thrown.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "dsl/latte.hpp"
#include "platform/comms/communicator.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"

namespace latte {

// The average over all links of Re tr U / 3 (1 on the free field).
template <class R, class W>
double average_link_trace(const GaugeField<R, W>& U) {
  double total = 0;
  for (int mu = 0; mu < 4; ++mu) total += sum(real(trace(U[mu])));
  return total / (3.0 * 4.0 * static_cast<double>(U.geometry().volume()));
}

// The same average of the links as a file stores them (link_slices.hpp's
// records), summed as they are read: each rank adds its slices, then
// average() adds the ranks' sums (collective).
class StoredLinkTrace {
 public:
  // The reals of whole link records of `rows` rows.
  void add(const std::vector<double>& values, int rows) {
    const std::size_t reals_per_link = static_cast<std::size_t>(rows) * 6;
    for (std::size_t link = 0; link < values.size() / reals_per_link; ++link) {
      const double* u = &values[link * reals_per_link];
      // Re u00 + Re u11 + Re u22; a two-row link's u22 is conj(u00 u11 - u01 u10).
      const double u22 = rows == 3 ? u[16] : u[0] * u[8] - u[1] * u[9] - (u[2] * u[6] - u[3] * u[7]);
      sum_ += u[0] + u[8] + u22;
    }
  }
  double average(const Communicator& communicator, std::int64_t volume) const {
    return sum_over_ranks(communicator, sum_) / (3.0 * 4.0 * static_cast<double>(volume));
  }

 private:
  double sum_ = 0;
};

// The first link a reader met that holds a NaN or an infinity, by its place
// in the lattice (global lexicographic site index, x fastest, then mu):
// each rank notes what it reads, and check() refuses the file on every rank
// where any rank met one, naming the first link of the whole lattice, so the
// message is the same for any number of ranks.
class NonFiniteLinks {
 public:
  // The `count` reals of link mu of global site `site`.
  void note(std::int64_t site, int mu, const double* reals, int count) {
    for (int k = 0; k < count; ++k)
      if (!std::isfinite(reals[k])) {
        const std::int64_t place = site * 4 + mu;
        if (place < first_.place) first_ = {place, reals[k]};
        return;
      }
  }

  // Collective: "<file> is corrupt: its link mu = 1 of site (x, y, z, t) =
  // [3 0 1 2] holds nan, not a finite number".
  void check(const std::string& file, const Communicator& communicator, const Coordinate& extents) const {
    std::vector<First> all(static_cast<std::size_t>(communicator.size()));
    communicator.all_gather(&first_, sizeof first_, all.data());
    First first;
    for (const First& f : all)
      if (f.place < first.place) first = f;
    if (first.place == none) return;
    const Coordinate x = coordinate_from_index(first.place / 4, extents);
    char value[32];
    std::snprintf(value, sizeof value, "%g", first.value);
    refuse(file + " is corrupt: its link mu = " + std::to_string(first.place % 4) + " of site (x, y, z, t) = " +
           to_string(x) + " holds " + value + ", not a finite number");
  }

 private:
  static constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();
  struct First {
    std::int64_t place = none;
    double value = 0;
  };
  First first_;
};

// Refuses the file unless its links' checksum is the one it states:
// "<file> is corrupt: <links_give> <computed> but <source> says <stated>",
// each checksum printed by `print`.
template <class Checksum, class Print>
void check_checksum(const std::string& file, const std::string& links_give, const Checksum& computed,
                    const Checksum& stated, const std::string& source, Print&& print) {
  if (computed != stated) refuse_corrupt(file, links_give + " " + print(computed), source + " says " + print(stated));
}

// Agreement to within `bound`, absolute, or relative to the stated value
// (at least 1: near zero the bound is absolute).
struct AbsoluteTolerance {
  double bound;
  bool operator()(double computed, double stated) const { return std::abs(computed - stated) <= bound; }
};
struct RelativeTolerance {
  double bound;
  bool operator()(double computed, double stated) const {
    return std::abs(computed - stated) <= bound * std::max(1.0, std::abs(stated));
  }
};

namespace gauge_file_detail {

inline std::string finite_or_said(double value) { return std::isfinite(value) ? "" : " (not a finite number)"; }

}  // namespace gauge_file_detail

// Refuses the file unless the average the links give agrees with the one
// it states, both finite:
//   "<file> is corrupt: its links have <quantity> <computed><note> but <stated_as>"
// (stated_as: "its header says 0.58", as the file writes it).
template <class Agrees>
void check_average(const std::string& file, const std::string& quantity, double computed, double stated,
                   const std::string& stated_as, Agrees&& agrees, const std::string& note = "") {
  if (std::isfinite(computed) && std::isfinite(stated) && agrees(computed, stated)) return;
  refuse_corrupt(file, "its links have " + quantity + " " + std::to_string(computed) + note +
                           gauge_file_detail::finite_or_said(computed),
                 stated_as + gauge_file_detail::finite_or_said(stated));
}

// The largest |(U U^+ - 1)_ij| of a link stored as 18 reals, row by row,
// (re, im); NaN or infinity where the link has one.
inline double unitarity_deviation(const double* u) {
  double worst = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double re = i == j ? -1.0 : 0.0, im = 0;
      for (int k = 0; k < 3; ++k) {
        // u_ik conj(u_jk)
        const double ar = u[6 * i + 2 * k], ai = u[6 * i + 2 * k + 1];
        const double br = u[6 * j + 2 * k], bi = u[6 * j + 2 * k + 1];
        re += ar * br + ai * bi;
        im += ai * br - ar * bi;
      }
      const double deviation = std::hypot(re, im);
      if (!(deviation <= worst)) worst = deviation;  // a NaN, once in, stays
      if (std::isnan(worst)) return worst;
    }
  return worst;
}

// Refuses the file unless the four links of a site (3-row records, 72
// reals) are unitary to `tolerance`; `site` is the site's global index,
// for the message.
inline void check_unitary(const std::string& file, const double* site_links, std::int64_t site, double tolerance) {
  for (int mu = 0; mu < 4; ++mu) {
    const double deviation = unitarity_deviation(site_links + 18 * mu);
    if (!(deviation <= tolerance)) {
      char numbers[96];
      std::snprintf(numbers, sizeof numbers, "%.3g%s, more than %.3g", deviation,
                    gauge_file_detail::finite_or_said(deviation).c_str(), tolerance);
      refuse(file + " is corrupt: its link mu = " + std::to_string(mu) + " of site " + std::to_string(site) +
             " is not unitary: max |U U^+ - 1| is " + numbers);
    }
  }
}

}  // namespace latte
