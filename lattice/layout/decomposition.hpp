#pragma once
// How a lattice is spread over the ranks of an MPI job (domain
// decomposition). The global extents G are cut by a process grid P into
// equal blocks of local extents L = G / P; the rank at place c of the grid
// holds the sites x with c L <= x < (c + 1) L, whose local coordinate is
// x - c L (the block's origin is c L). Each rank's block is then laid out in
// virtual nodes like a lattice of its own (lattice/layout/simd_layout.hpp).
//
// A dimension "communicates" when P > 1 there, or when forced
// communication is asked for it: a shift that leaves the local block in such
// a dimension takes its values from a halo filled by messages, even when the
// neighbouring block is this rank's own (a test mode that runs the whole
// halo path in one process). A dimension that does not communicate wraps
// around inside the block, as a lattice on one rank does.
//
// The process grid: given in code (GeometryOptions), else by
// LATTE_PROCESS_GRID=1.1.2.2 in the environment or --process-grid 1.1.2.2 on
// the command line of a program with a latte::Environment, else chosen here
// (default_process_grid). Forced communication likewise:
// LATTE_FORCE_COMMUNICATION=all, or a mask such as 1.0.0.1.

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "platform/comms/communicator.hpp"
#include "platform/coordinate.hpp"
#include "platform/errors.hpp"
#include "platform/runtime_linkage.hpp"

namespace latte {

// "1.1.2.2" -> [1 1 2 2]; `what` names the setting in error messages.
LATTE_RUNTIME_INLINE Coordinate parse_dotted(const std::string& text, const std::string& what);

// Run-time choices for every geometry built without explicit ones. Read from
// the environment on first use; a latte::Environment may override them from
// the command line before any geometry is made.
struct DecompositionDefaults {
  std::string process_grid;         // dotted, or empty: choose
  std::string force_communication;  // "all", a dotted mask, or empty: none
  bool overlap = true;              // LATTE_OVERLAP=0: exchange first, then all sites (for debugging)

  static DecompositionDefaults& instance() {
    static DecompositionDefaults defaults = [] {
      DecompositionDefaults d;
      if (const char* v = std::getenv("LATTE_PROCESS_GRID")) d.process_grid = v;
      if (const char* v = std::getenv("LATTE_FORCE_COMMUNICATION")) d.force_communication = v;
      if (const char* v = std::getenv("LATTE_OVERLAP")) d.overlap = std::string(v) != "0";
      return d;
    }();
    return defaults;
  }
};

// Statements overlap their halo exchanges with the interior sites unless
// this is switched off (results are the same bits either way).
inline void set_communication_overlap(bool on) { DecompositionDefaults::instance().overlap = on; }
inline bool communication_overlap() { return DecompositionDefaults::instance().overlap; }

// The default process grid for `ranks` ranks: balanced, as MPI_Dims_create
// makes it, but aware of the extents. Prime factors of the rank count,
// largest first, each go to the dimension with the largest local extent that
// they divide (the last such dimension on a tie, so the slowest dimensions
// are split first, as lattice QCD codes usually split time first).
LATTE_RUNTIME_INLINE Coordinate default_process_grid(const Coordinate& dims, int ranks);

class Decomposition {
 public:
  // replicated: every rank holds the whole lattice and works alone.
  Decomposition(Coordinate global_dims, Coordinate process_grid, Coordinate forced, bool replicated);

  int dimensions() const { return static_cast<int>(global_.size()); }
  const Coordinate& global_dims() const { return global_; }
  const Coordinate& local_dims() const { return local_; }
  const Coordinate& process_grid() const { return grid_; }
  const Coordinate& forced() const { return forced_; }
  const Coordinate& place() const { return place_; }    // this rank's place in the process grid
  const Coordinate& origin() const { return origin_; }  // global coordinate of local site 0
  const Communicator& communicator() const { return communicator_; }
  int ranks() const { return static_cast<int>(product(grid_)); }

  bool communicates(int mu) const { return grid_[mu] > 1 || forced_[mu] != 0; }
  bool any_communication() const {
    for (int mu = 0; mu < dimensions(); ++mu)
      if (communicates(mu)) return true;
    return false;
  }
  bool decomposed() const { return ranks() > 1; }

  // The rank holding the block at `offset` blocks from this rank's.
  int rank_at_offset(const Coordinate& offset) const {
    Coordinate c(place_);
    for (int mu = 0; mu < dimensions(); ++mu) c[mu] = ((c[mu] + offset[mu]) % grid_[mu] + grid_[mu]) % grid_[mu];
    return communicator_.rank_at(c);
  }
  // Which rank holds the global site x (a valid coordinate).
  int owner(const Coordinate& x) const {
    Coordinate c(x.size());
    for (std::size_t mu = 0; mu < x.size(); ++mu) c[mu] = x[mu] / local_[mu];
    return communicator_.rank_at(c);
  }
  bool holds(const Coordinate& x) const {
    for (std::size_t mu = 0; mu < x.size(); ++mu)
      if (x[mu] < origin_[mu] || x[mu] >= origin_[mu] + local_[mu]) return false;
    return true;
  }

  // The grid's product is the number of ranks that share the lattice, so a
  // grid of ones on a job of many ranks can only be a replicated lattice.
  bool same_as(const Decomposition& other) const {
    return global_ == other.global_ && grid_ == other.grid_ && forced_ == other.forced_;
  }
  // For messages: nothing on one rank, else the grid and the block.
  std::string describe() const;

 private:
  Coordinate global_, grid_, forced_, local_, place_, origin_;
  Communicator communicator_;
};

#if LATTE_RUNTIME_DEFINITIONS  // platform/runtime_linkage.hpp
LATTE_RUNTIME_INLINE Coordinate default_process_grid(const Coordinate& dims, int ranks) {
  Coordinate grid(dims.size(), 1);
  std::vector<int> factors;
  for (int n = ranks, p = 2; n > 1;) {
    if (n % p == 0) {
      factors.push_back(p);
      n /= p;
    } else {
      ++p;
    }
  }
  for (auto f = factors.rbegin(); f != factors.rend(); ++f) {
    int best = -1;
    for (int mu = 0; mu < static_cast<int>(dims.size()); ++mu) {
      const int local = dims[mu] / grid[mu];
      if (local % *f == 0 && (best < 0 || local >= dims[best] / grid[best])) best = mu;
    }
    if (best < 0)
      throw LayoutError("Latte: lattice extents " + to_string(dims) + " cannot be split over " + std::to_string(ranks) +
                        " ranks (process grid so far " + to_string(grid) + ", no extent left divisible by " +
                        std::to_string(*f) + "); give a process grid with LATTE_PROCESS_GRID or GeometryOptions");
    grid[best] *= *f;
  }
  return grid;
}

LATTE_RUNTIME_INLINE Coordinate parse_dotted(const std::string& text, const std::string& what) {
  Coordinate out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t dot = text.find('.', start);
    const std::string part = text.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    char* end = nullptr;
    const long value = part.empty() ? -1 : std::strtol(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || value < 0 || value > 1 << 20)
      throw LayoutError("Latte: cannot read " + what + " '" + text + "': expected non-negative integers separated by dots, e.g. 1.1.2.2");
    out.push_back(static_cast<int>(value));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

LATTE_RUNTIME_INLINE Decomposition::Decomposition(Coordinate global_dims, Coordinate process_grid, Coordinate forced, bool replicated)
    : global_(std::move(global_dims)), grid_(std::move(process_grid)), forced_(std::move(forced)) {
  const int nd = static_cast<int>(global_.size());
  if (forced_.empty()) forced_.assign(nd, 0);
  if (static_cast<int>(grid_.size()) != nd || static_cast<int>(forced_.size()) != nd)
    throw LayoutError("Latte: the process grid " + to_string(grid_) + " and forced-communication mask " +
                      to_string(forced_) + " must have one entry per dimension of the lattice extents " +
                      to_string(global_));
  communicator_ = replicated ? self_communicator() : world_communicator();
  const int ranks = communicator_.size();
  if (product(grid_) != ranks)
    throw LayoutError("Latte: the process grid " + to_string(grid_) + " has " + std::to_string(product(grid_)) +
                      " ranks, but the job has " + std::to_string(ranks) + " (lattice extents " + to_string(global_) +
                      ")");
  local_.resize(nd);
  for (int mu = 0; mu < nd; ++mu) {
    if (grid_[mu] <= 0 || global_[mu] % grid_[mu] != 0)
      throw LayoutError("Latte: lattice extents " + to_string(global_) + " are not divisible by the process grid " +
                        to_string(grid_) + " (dimension " + std::to_string(mu) + ")");
    local_[mu] = global_[mu] / grid_[mu];
  }
  // One rank works alone (no MPI call is needed for anything it does).
  communicator_ = ranks > 1 ? cartesian_communicator(grid_) : self_communicator();
  place_ = communicator_.coordinates(nd);
  origin_.resize(nd);
  for (int mu = 0; mu < nd; ++mu) origin_[mu] = place_[mu] * local_[mu];
}

LATTE_RUNTIME_INLINE std::string Decomposition::describe() const {
  std::string s;
  if (decomposed()) s += " over the process grid " + to_string(grid_) + " (local extents " + to_string(local_) + ")";
  bool forced_any = false;
  for (int f : forced_) forced_any = forced_any || f;
  if (forced_any) s += " with forced communication " + to_string(forced_);
  return s;
}
#endif  // LATTE_RUNTIME_DEFINITIONS

}  // namespace latte
