#pragma once
// The plan of one statement: the context its expressions are prepared in,
// and the order in which it runs.
//
// Preparing (prepare(node, plan), dsl/exec/prepare.hpp) points every field
// and shift table at the memory the backend works on, and tells the plan
// about each shift whose table has a halo (lattice/layout/halo_exchange.hpp): the
// plan gives it the halo's records to read and keeps a copy of the shifted
// sub-expression's evaluator to evaluate it on the sites other ranks need
// (its "compressor": whatever the sub-expression's value is — a half
// spinor, U^+ h, one population — is what travels). Then run() executes:
//
//   1. halos of shifts nested inside other shifts, deepest first, each
//      packed, exchanged and unpacked before the level above packs;
//   2. the top-level halos: post receives, pack, send;
//   3. the interior outer sites, which read no halo, while messages travel;
//   4. wait, unpack into the halo records;
//   5. the surface outer sites.
//
// Every site is computed by the same expression in the same order whether
// a neighbour comes from memory or from a halo, so the result does not
// depend on the decomposition or on overlap (set_communication_overlap(false)
// or LATTE_OVERLAP=0 runs 4 before 3 and then all sites at once). A
// statement with no halo runs all sites in one call, as on one rank.
//
// Buffers and site splits are cached with the tables, the plan itself holds
// a fixed array, and the evaluator copies live in a store whose memory is
// kept (dsl/exec/evaluator_store.hpp): repeating a statement allocates nothing.
//
// On device memory a payload is packed and unpacked where statements run and
// MPI gets its pinned host copy (or, with CUDA-aware MPI, the device buffer):
// the plan queues the copies (HaloPayload::stage_to_host/stage_to_device) and
// brackets the halo work with the backend's hooks, which on cuda order its
// halo stream against the statements (platform/cuda/halo_stream.hpp):
// halo_begin() before the packs, halo_staged() before MPI reads a payload,
// halo_end() after the unpacks and before the surface. The sends go out
// before the interior is issued: a reduction's interior returns its partial
// result to the host, and would hold the messages back until it is done.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "dsl/exec/evaluator_store.hpp"
#include "dsl/exec/halo_kernels.hpp"
#include "dsl/statements/halo_sequence.hpp"
#include "lattice/layout/decomposition.hpp"
#include "lattice/layout/halo_exchange.hpp"
#include "lattice/layout/simd_layout.hpp"

namespace latte {

template <class Backend>
class StatementPlan {
 public:
  // Halo uses per statement. D3Q27 has 26 shifts; a Wilson operator has 8,
  // also on a batch of right-hand sides (dsl/expr/batch_lowering.hpp: one halo
  // holds the whole batch).
  static constexpr int capacity = 256;

  explicit StatementPlan(const SiteLayout& layout) : layout_(layout) { statement_evaluators().clear(); }
  StatementPlan(const StatementPlan&) = delete;
  StatementPlan& operator=(const StatementPlan&) = delete;

  static constexpr MemorySide side() { return Backend::memory_side; }

  void enter_shift() { ++depth_; }
  void leave_shift() { --depth_; }

  // A shift whose table has a halo: keep its operand's evaluator (which
  // evaluates the shifted sub-expression at a message's source sites) and
  // return the halo records the shift reads.
  template <class Operand>
  auto* add_remote(const Operand& operand, const HaloExchange& exchange) {
    if (count_ == capacity)
      throw std::length_error("Latte: a statement with more than " + std::to_string(capacity) +
                              " shifts that need halos; split it");
    using Real = typename Operand::real_type;
    constexpr int words = words_v<rebind_t<typename Operand::value_type, Real>>;
    int occurrence = 0;
    for (int i = 0; i < count_; ++i)
      occurrence += remotes_[i].exchange == &exchange && remotes_[i].words == words &&
                    remotes_[i].real_bytes == sizeof(Real);
    HaloBuffers& buffers = exchange.buffers(sizeof(Real), words, Operand::nsimd, occurrence);
    Real* records = static_cast<Real*>(buffers.records.data(side(), Access::read_write));
    // On the device, the messages' item tables are copied there now, in
    // statement order, so that halo work ordered after the statements before
    // it (Backend::halo_begin) finds them complete.
    if constexpr (side() == MemorySide::device)
      for (const HaloMessage& message : exchange.messages) (void)message.view(side());
    remotes_[count_++] = Remote{&exchange,  &buffers, statement_evaluators().keep(operand), &pack<Operand>,
                                &unpack<Real>, words, sizeof(Real), Operand::nsimd, depth_};
    max_depth_ = depth_ > max_depth_ ? depth_ : max_depth_;
    return records;
  }

  bool has_halos() const { return count_ > 0; }
  // Shifts of this statement that read halos (a shift of a batch of
  // right-hand sides is one, its records holding the whole batch).
  int halo_count() const { return count_; }

  // Bytes this rank sends per run of the statement (all its halos).
  std::int64_t halo_bytes() const {
    std::int64_t bytes = 0;
    for (int i = 0; i < count_; ++i) bytes += remotes_[i].exchange->bytes_sent(remotes_[i].words, remotes_[i].real_bytes);
    return bytes;
  }

  // body(SiteRange) for every outer site of the layout, in the order above.
  template <class Body>
  void run(Body&& body) {
    if (count_ == 0) return body(SiteRange{nullptr, layout_.outer_volume()});
    for (int depth = max_depth_; depth >= 1; --depth) {
      start(depth);
      finish(depth);
    }
    start(0);
    std::array<const HaloExchange*, capacity> top;
    int tops = 0;
    for (int i = 0; i < count_; ++i)
      if (remotes_[i].depth == 0) top[tops++] = remotes_[i].exchange;
    if (tops == 0 || !communication_overlap()) {
      finish(0);
      return body(SiteRange{nullptr, layout_.outer_volume()});
    }
    std::sort(top.begin(), top.begin() + tops);
    const int unique = static_cast<int>(std::unique(top.begin(), top.begin() + tops) - top.begin());
    const SiteSplit& split = layout_.site_split(std::span<const HaloExchange* const>(top.data(), unique));
    body(split.interior_range(side()));
    finish(0);
    body(split.surface_range(side()));
  }

 private:
  struct Remote {
    const HaloExchange* exchange;
    HaloBuffers* buffers;
    const void* operand;  // the shifted operand's evaluator (EvaluatorStore)
    void (*pack)(const void* operand, HaloItemsView items, void* payload);
    void (*unpack)(HaloItemsView items, const void* payload, void* records, int words, int nsimd);
    int words;
    std::size_t real_bytes;
    int nsimd;
    int depth;
  };

  // The exchange of the halos at `depth` (dsl/statements/halo_sequence.hpp): body(i,
  // buffers, m, message) for every message m of every remote i there.
  auto messages_at(int depth) {
    return [this, depth](auto&& body) {
      for (int i = 0; i < count_; ++i) {
        const Remote& r = remotes_[i];
        if (r.depth != depth) continue;
        for (std::size_t m = 0; m < r.exchange->messages.size(); ++m) body(i, *r.buffers, m, r.exchange->messages[m]);
      }
    };
  }
  HaloSequence<Backend> sequence() const {
    return HaloSequence<Backend>(layout_.decomposition().communicator(), HaloDirection::forward);
  }

  // Post the receives, pack, stage, then send every message of the halos at `depth`.
  void start(int depth) {
    sequence().start(messages_at(depth), [&](int i, std::size_t, const HaloMessage& message, void* payload) {
      remotes_[i].pack(remotes_[i].operand, message.view(side()), payload);
    });
  }

  // Wait for the messages, then fill the halo records of `depth`.
  void finish(int depth) {
    sequence().finish(messages_at(depth), [&](int i, std::size_t, const HaloMessage& message, const void* payload) {
      const Remote& r = remotes_[i];
      r.unpack(message.view(side()), payload, r.buffers->records.data(side(), Access::read_write), r.words, r.nsimd);
    });
  }

  // Evaluate a kept operand at a message's source sites, into its payload,
  // and a received payload into the halo records (dsl/exec/halo_kernels.hpp).
  template <class Operand>
  static void pack(const void* operand, HaloItemsView items, void* payload) {
    using Real = typename Operand::real_type;
    Backend::for_each_halo_item(items, PackKernel<Operand>{*static_cast<const Operand*>(operand), items,
                                                           static_cast<Real*>(payload)});
  }
  template <class Real>
  static void unpack(HaloItemsView items, const void* payload, void* records, int words, int nsimd) {
    Backend::for_each_halo_item(
        items, UnpackKernel<Real>{items, static_cast<const Real*>(payload), static_cast<Real*>(records), words, nsimd});
  }

  const SiteLayout& layout_;
  // Not zeroed: only the first count_ are ever read, and a plan is made
  // for every statement (256 entries are 16 KB).
  std::array<Remote, capacity> remotes_;
  int count_ = 0, depth_ = 0, max_depth_ = 0;
};

}  // namespace latte
