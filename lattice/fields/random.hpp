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

#include "lattice/fields/lattice_type.hpp"
#include "lattice/layout/site_walk.hpp"
#include "lattice/tensors/site_random.hpp"
#include "platform/build.hpp"

namespace latte {

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
