#pragma once
// The random numbers of one site: a counter-based stream (Philox4x32-10
// from Random123) keyed on (seed, global site, stream number), so every
// number is a pure function of those and of how many were drawn before it.
// ParallelRng (lattice/fields/random.hpp) fills fields with it; site code
// that needs random numbers of its own (a random SU(3) matrix, a Gaussian
// algebra element) draws them from the stream it is given.
// Conventions: uniform() is in [0, 1); gaussian() has mean 0 and variance 1.

#include <cmath>
#include <cstdint>

#include <Random123/philox.h>

namespace latte {

// The random numbers of one site within one stream.
class SiteRandomStream {
 public:
  SiteRandomStream(std::uint64_t seed, std::uint64_t site, std::uint32_t stream)
      : key_{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
        counter_{{static_cast<std::uint32_t>(site), static_cast<std::uint32_t>(site >> 32), stream, 0}} {}

  std::uint32_t next_word() {
    if (used_ == 4) refill();
    return words_[used_++];
  }

  // 53 random bits -> [0, 1)
  double uniform() {
    const std::uint64_t high = next_word() >> 5;  // 27 bits
    const std::uint64_t low = next_word() >> 6;   // 26 bits
    return static_cast<double>((high << 26) | low) * 0x1.0p-53;
  }

  // Box-Muller; the second value of each pair is kept for the next call.
  double gaussian() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - uniform();  // (0, 1]: log is finite
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double phi = 6.283185307179586476925 * u2;
    spare_ = r * std::sin(phi);
    has_spare_ = true;
    return r * std::cos(phi);
  }

 private:
  void refill() {
    const auto out = r123::Philox4x32()(counter_, key_);
    for (int i = 0; i < 4; ++i) words_[i] = out[i];
    counter_[3] += 1;
    used_ = 0;
  }

  r123::Philox4x32::key_type key_;
  r123::Philox4x32::ctr_type counter_;
  std::uint32_t words_[4] = {0, 0, 0, 0};
  int used_ = 4;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace latte
