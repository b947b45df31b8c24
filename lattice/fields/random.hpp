#pragma once
// Counter-based parallel random numbers (Philox4x32-10 from Random123).
// Every number is a pure function of (seed, global site, stream, draw), so a
// random field is the same for every SIMD layout, lane count, thread count
// and backend: tests can compare layouts bit for bit, and a run can be
// reproduced on any machine. Each fill uses a fresh stream number.
// Conventions: uniform() is in [0, 1); gaussian() has mean 0 and variance 1
// (each real component of a gaussian field independently, as in Grid).

#include <cmath>
#include <cstdint>

#include <Random123/philox.h>

#include "backends/config.hpp"
#include "lattice/lattice_type.hpp"
#include "lattice/site_walk.hpp"

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

class ParallelRng {
 public:
  explicit ParallelRng(std::uint64_t seed) : seed_(seed) {}

  // field(x) = generate(stream of x) for a generator returning the site value.
  template <class T, class W, class Generate>
  void fill(Lattice<T, W>& field, Generate&& generate) {
    const std::uint32_t stream = next_stream_++;
    const Geometry& geometry = field.geometry();
    const auto view = field.host_view(Access::write);
    for_each_site(field.layout(), [&](std::int64_t o, int l, const Coordinate& x) {
      SiteRandomStream random(seed_, static_cast<std::uint64_t>(geometry.global_index(x)), stream);
      view.store(LaneSite<real_of_t<T>>{o, l}, generate(random));
    });
  }

  // Every real component independently N(0, 1).
  template <class T, class W>
  void gaussian(Lattice<T, W>& field) {
    fill(field, [](SiteRandomStream& random) {
      T value;
      for_each_leaf([&](auto& x) { x = static_cast<std::remove_reference_t<decltype(x)>>(random.gaussian()); }, value);
      return value;
    });
  }

  // Every real component independently uniform in [low, high).
  template <class T, class W>
  void uniform(Lattice<T, W>& field, double low = 0.0, double high = 1.0) {
    fill(field, [=](SiteRandomStream& random) {
      T value;
      for_each_leaf([&](auto& x) {
        using Real = std::remove_reference_t<decltype(x)>;
        x = static_cast<Real>(low + (high - low) * random.uniform());
        // Rounding to a narrower type can reach high itself; stay in [low, high).
        if (x >= static_cast<Real>(high)) x = std::nextafter(static_cast<Real>(high), static_cast<Real>(low));
      }, value);
      return value;
    });
  }

  std::uint64_t seed() const { return seed_; }
  std::uint32_t streams_used() const { return next_stream_; }

 private:
  std::uint64_t seed_;
  std::uint32_t next_stream_ = 0;
};

}  // namespace latte
