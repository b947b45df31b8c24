#pragma once
// Hybrid Monte Carlo (Duane, Kennedy, Pendleton & Roweth 1987) on a gauge
// field: momentum refresh, molecular dynamics (solvers/qcd/update/md_integrator.hpp),
// Metropolis with dH from reproducible reductions, and a checkpoint that
// restarts the chain with identical bits.
//
// Same bits on any machine: a trajectory's random numbers (momenta,
// pseudofermions, the Metropolis number) are counter-based and keyed on
// (seed, trajectory number, purpose) and the global site, every statement
// gives the same bits on any rank count, and dH is a difference of
// reproducible sums; so the chain (links, dH, decisions) is the same on 1,
// 2 or 64 ranks. Its whole state is the links and (seed, trajectory
// number): a checkpoint is a NERSC file (3x3, IEEE64: exact bits) and a
// small text file.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "lattice/fields/root_output.hpp"
#include "platform/errors.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/io/nersc_gauge_file.hpp"
#include "solvers/qcd/update/md_integrator.hpp"

namespace latte {

// A trajectory whose energy is not finite: the links are restored to the
// configuration before it, and the chain can go on with a smaller step.
struct HmcError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct HmcParameters {
  double trajectory_length = 1.0;
  std::uint64_t seed = 1;
  bool metropolis = true;  // false: accept every trajectory (tests of the integrator)
  // Trajectories numbered below this are accepted without the test: from a
  // cold start, where a step that suits equilibrium gives dH >> 1 and the
  // chain would never leave. They are thermalisation, never measured.
  std::uint64_t no_metropolis_until = 0;
};

// What one trajectory did.
struct TrajectoryRecord {
  std::uint64_t trajectory = 0;  // its number in the chain, from 0
  double delta_h = 0;            // H(end) - H(start)
  double exp_minus_delta_h = 1;
  bool accepted = false;
  double plaquette = 0;  // of the configuration the chain holds after the decision
  double seconds = 0;
};

// The random keys' purposes within one trajectory.
enum class HmcRandomPurpose : std::uint64_t { momenta = 1, metropolis = 2, monomials = 3 };

template <class R, class W = DefaultWidth>
class HybridMonteCarlo {
 public:
  // monomials: every term of the action (each must sit on some level of md).
  HybridMonteCarlo(GaugeField<R, W>& U, MolecularDynamics<R, W>& md, std::vector<Monomial<R, W>*> monomials,
                   const HmcParameters& parameters)
      : U_(U), md_(md), monomials_(std::move(monomials)), parameters_(parameters), P_(U.geometry()),
        start_(U.geometry()) {
    if (!(parameters_.trajectory_length > 0))
      throw std::invalid_argument("Latte: an HMC trajectory needs a positive length, not " +
                                  std::to_string(parameters_.trajectory_length));
  }

  TrajectoryRecord trajectory() {
    const auto begin = std::chrono::steady_clock::now();
    TrajectoryRecord record;
    record.trajectory = next_trajectory_;
    const std::uint64_t seed = parameters_.seed;
    for (int mu = 0; mu < spacetime_dimensions; ++mu) start_[mu] = U_[mu];
    // A term that fails on the way (a solve that does not converge, a clover
    // term that loses positivity) leaves the chain where it was.
    try {
      refresh_momenta(P_, mixed_key(seed, next_trajectory_, std::uint64_t(HmcRandomPurpose::momenta)));
      for (std::size_t i = 0; i < monomials_.size(); ++i)
        monomials_[i]->refresh(U_, mixed_key(mixed_key(seed, next_trajectory_, std::uint64_t(HmcRandomPurpose::monomials)), i, 0));
      const double h_start = hamiltonian();
      md_.integrate(U_, P_, parameters_.trajectory_length);
      const double h_end = hamiltonian();
      record.delta_h = h_end - h_start;
    } catch (const std::exception& error) {
      for (int mu = 0; mu < spacetime_dimensions; ++mu) U_[mu] = start_[mu];
      throw HmcError("Latte: HMC trajectory " + std::to_string(next_trajectory_) + " failed: " + error.what() +
                     "; the configuration before it is restored");
    }
    if (!std::isfinite(record.delta_h)) {
      for (int mu = 0; mu < spacetime_dimensions; ++mu) U_[mu] = start_[mu];
      throw HmcError("Latte: HMC trajectory " + std::to_string(next_trajectory_) +
                        " diverged: dH = " + std::to_string(record.delta_h) +
                        " (step too large for the forces?); the configuration before it is restored");
    }
    record.exp_minus_delta_h = std::exp(-record.delta_h);
    record.accepted = !parameters_.metropolis || next_trajectory_ < parameters_.no_metropolis_until ||
                      record.delta_h <= 0 ||
                      metropolis_number(next_trajectory_) < record.exp_minus_delta_h;
    if (!record.accepted)
      for (int mu = 0; mu < spacetime_dimensions; ++mu) U_[mu] = start_[mu];
    accepted_ += record.accepted;
    ++next_trajectory_;
    record.plaquette = average_plaquette(U_);
    record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return record;
  }

  // H = -sum tr P^2 + sum of the monomials' actions.
  double hamiltonian() {
    double h = kinetic_energy(P_);
    for (Monomial<R, W>* monomial : monomials_) h += monomial->action(U_);
    return h;
  }

  std::uint64_t next_trajectory() const { return next_trajectory_; }
  std::uint64_t accepted() const { return accepted_; }
  AlgebraField<R, W>& momenta() { return P_; }

  // prefix.nersc (the links) and prefix.hmc (seed, next trajectory,
  // accepted count); written through temporary files and renames.
  void save_checkpoint(const std::string& prefix) const {
    NerscWriteOptions options;
    options.sequence_number = static_cast<int>(next_trajectory_);
    write_nersc(U_, prefix + ".nersc", options);
    write_on_root([&] {
      const std::string path = prefix + ".hmc", temporary = path + ".tmp";
      {
        std::ofstream out(temporary);
        out << "latte-hmc-checkpoint 1\nseed " << parameters_.seed << "\nnext_trajectory " << next_trajectory_
            << "\naccepted " << accepted_ << "\n";
        if (!out) throw std::runtime_error("Latte: cannot write the HMC checkpoint '" + temporary + "'");
      }
      if (std::rename(temporary.c_str(), path.c_str()) != 0)
        throw std::runtime_error("Latte: cannot rename '" + temporary + "' to '" + path + "'");
    });
  }

  // Reads what save_checkpoint wrote; the chain continues with the same bits.
  void restore_checkpoint(const std::string& prefix) {
    const std::string path = prefix + ".hmc";
    std::ifstream in(path);
    if (!in) throw GaugeFileError("Latte: cannot open the HMC checkpoint '" + path + "'");
    std::string magic, key;
    int version = 0;
    std::uint64_t seed = 0, next = 0, accepted = 0;
    in >> magic >> version;
    if (magic != "latte-hmc-checkpoint" || version != 1)
      throw GaugeFileError("Latte: '" + path + "' is not a Latte HMC checkpoint (version 1)");
    auto read = [&](const char* expected, std::uint64_t& value) {
      if (!(in >> key >> value) || key != expected)
        throw GaugeFileError("Latte: the HMC checkpoint '" + path + "' is malformed: expected '" + expected + "'");
    };
    read("seed", seed);
    read("next_trajectory", next);
    read("accepted", accepted);
    if (seed != parameters_.seed)
      throw GaugeFileError("Latte: the HMC checkpoint '" + path + "' was written with seed " + std::to_string(seed) +
                           ", this chain has seed " + std::to_string(parameters_.seed));
    read_nersc(U_, prefix + ".nersc");
    next_trajectory_ = next;
    accepted_ = accepted;
  }

 private:
  // One uniform number in [0, 1) per trajectory, the same on every rank.
  double metropolis_number(std::uint64_t trajectory) const {
    SiteRandomStream random(mixed_key(parameters_.seed, trajectory, std::uint64_t(HmcRandomPurpose::metropolis)), 0, 0);
    return random.uniform();
  }

  GaugeField<R, W>& U_;
  MolecularDynamics<R, W>& md_;
  std::vector<Monomial<R, W>*> monomials_;
  HmcParameters parameters_;
  AlgebraField<R, W> P_;
  GaugeField<R, W> start_;
  std::uint64_t next_trajectory_ = 0;
  std::uint64_t accepted_ = 0;
};

}  // namespace latte
