#pragma once
// The plan of one statement: the context its expressions are prepared in,
// and the order in which it runs.
//
// Preparing (prepare(node, plan), dsl/exec/prepare.hpp) points every field
// and shift table at the memory the backend works on, and tells the plan
// about each shift whose table has a halo (lattice/halo_exchange.hpp): the
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
// halo stream against the statements (backends/cuda/halo_stream.hpp):
// halo_begin() before the packs, halo_staged() before MPI reads a payload,
// halo_end() after the unpacks and before the surface. The sends go out
// before the interior is issued: a reduction's interior returns its partial
// result to the host, and would hold the messages back until it is done.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "dsl/exec/evaluator_store.hpp"
#include "lattice/decomposition.hpp"
#include "lattice/halo_exchange.hpp"
#include "lattice/simd_layout.hpp"

namespace latte {

// What this rank's statements have exchanged so far (benchmarks take
// differences around a call): messages to other ranks and their bytes, and
// the time spent waiting for messages to arrive.
struct CommunicationCounters {
  std::int64_t exchanges = 0;  // statement phases that exchanged halos
  std::int64_t messages = 0;   // sent to another rank
  std::int64_t bytes = 0;      // sent to another rank
  double wait_seconds = 0;     // in completing exchanges (after the interior, if overlapped)
  double exchange_seconds = 0; // all the halo work of the issuing thread: pack, post, wait, unpack
};
inline CommunicationCounters& communication_counters() {
  static CommunicationCounters counters;
  return counters;
}

// Requests of the statement being run (one at a time per process), kept so
// that their storage is reused.
inline Requests& statement_requests() {
  static Requests requests;
  return requests;
}

template <class Backend>
class StatementPlan {
 public:
  // Halo uses per statement. D3Q27 has 26 shifts; a Wilson operator on a
  // batch of N right-hand sides, evaluated one right-hand side at a time
  // (dsl/batch_lowering.hpp), has 8 N: 96 for a 12-column propagator, each
  // with its own (1/N-sized) messages.
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
                                &Backend::template unpack<Real>, words, sizeof(Real), Operand::nsimd, depth_};
    max_depth_ = depth_ > max_depth_ ? depth_ : max_depth_;
    return records;
  }

  bool has_halos() const { return count_ > 0; }

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

  // body(index, remote, message index, message) for every message of the
  // halos at `depth`.
  template <class Body>
  void for_each_message(int depth, Body&& body) {
    for (int i = 0; i < count_; ++i) {
      const Remote& r = remotes_[i];
      if (r.depth != depth) continue;
      for (std::size_t m = 0; m < r.exchange->messages.size(); ++m) body(i, r, m, r.exchange->messages[m]);
    }
  }

  // Post the receives, pack, stage, then send every message of the halos at `depth`.
  void start(int depth) {
    const auto started = std::chrono::steady_clock::now();
    const Communicator& comm = layout_.decomposition().communicator();
    Requests& requests = statement_requests();
    Backend::halo_begin();
    for_each_message(depth, [&](int i, const Remote& r, std::size_t m, const HaloMessage& message) {
      if (message.to_self) return;
      HaloPayload& payload = r.buffers->receive[m];
      comm.receive_async(payload.message_data(), payload.bytes(), message.source_rank, tag(i, m), requests);
    });
    for_each_message(depth, [&](int, const Remote& r, std::size_t m, const HaloMessage& message) {
      HaloPayload& payload = r.buffers->send[m];
      r.pack(r.operand, message.view(side()), payload.kernel_data());
      if (!message.to_self) payload.stage_to_host();
    });
    Backend::halo_staged();
    for_each_message(depth, [&](int i, const Remote& r, std::size_t m, const HaloMessage& message) {
      if (message.to_self) return;
      HaloPayload& payload = r.buffers->send[m];
      comm.send_async(payload.message_data(), payload.bytes(), message.destination_rank, tag(i, m), requests);
      ++communication_counters().messages;
      communication_counters().bytes += static_cast<std::int64_t>(payload.bytes());
    });
    ++communication_counters().exchanges;
    communication_counters().exchange_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }

  // Wait for the messages, then fill the halo records of `depth`.
  void finish(int depth) {
    const auto waiting = std::chrono::steady_clock::now();
    statement_requests().wait_all();
    communication_counters().wait_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - waiting).count();
    for_each_message(depth, [&](int, const Remote& r, std::size_t m, const HaloMessage& message) {
      HaloPayload& payload = message.to_self ? r.buffers->send[m] : r.buffers->receive[m];
      if (!message.to_self) payload.stage_to_device();
      r.unpack(message.view(side()), payload.kernel_data(), r.buffers->records.data(side(), Access::read_write),
               r.words, r.nsimd);
    });
    Backend::halo_end();
    communication_counters().exchange_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - waiting).count();
  }

  // Evaluate a kept operand at a message's source sites, into its payload.
  template <class Operand>
  static void pack(const void* operand, HaloItemsView items, void* payload) {
    Backend::pack(*static_cast<const Operand*>(operand), items, static_cast<typename Operand::real_type*>(payload));
  }

  // Tags keep apart the messages of one statement between the same two
  // ranks: the halo (0 .. 63) and the message within it (0 .. 126), so
  // the + and - neighbours stay apart when they are the same rank.
  static int tag(int remote, std::size_t message) { return remote * 128 + static_cast<int>(message); }

  const SiteLayout& layout_;
  // Not zeroed: only the first count_ are ever read, and a plan is made
  // for every statement (256 entries are 16 KB).
  std::array<Remote, capacity> remotes_;
  int count_ = 0, depth_ = 0, max_depth_ = 0;
};

}  // namespace latte
