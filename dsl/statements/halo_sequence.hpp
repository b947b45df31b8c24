#pragma once
// One exchange of halo messages, written once for the two directions a
// statement sends them in:
//
//   forward  (a shift, dsl/statements/statement_plan.hpp): each message's payload is
//            filled at its source rank (the shifted operand evaluated at the
//            items' source sites) and received at its destination rank
//            (stored into the halo records the shift reads);
//   backward (a push, dsl/statements/push.hpp): the halo records a push wrote are sent
//            back from the destination rank and delivered at the items'
//            source sites on the source rank.
//
// start() posts the receives, fills every payload, stages it for MPI and
// sends it; finish() waits, stages the received payloads back and consumes
// them. A statement may run its interior sites between the two. The
// backend's hooks bracket the halo work (on cuda they order the halo stream
// against the statements, platform/cuda/halo_stream.hpp): halo_begin()
// before the first fill, halo_staged() before MPI reads a payload,
// halo_end() after the last consume. A message to the same rank (a
// periodic direction the rank spans alone, or forced communication) is
// consumed from its send payload without going through MPI.

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "lattice/layout/decomposition.hpp"
#include "lattice/layout/halo_exchange.hpp"
#include "platform/memory/memory_side.hpp"

namespace latte {

// What this rank's statements have exchanged so far (benchmarks take
// differences around a call): messages to other ranks and their bytes, and
// the time spent waiting for messages to arrive.
struct CommunicationCounters {
  std::int64_t exchanges = 0;  // statement phases that exchanged halos
  std::int64_t messages = 0;   // sent to another rank
  std::int64_t bytes = 0;      // sent to another rank
  double wait_seconds = 0;     // in completing exchanges (after the interior, if overlapped)
  double exchange_seconds = 0; // all the halo work of the issuing thread: fill, post, wait, consume
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

enum class HaloDirection { forward, backward };

// for_each_message(body) calls body(halo, buffers, m, message) for every
// message m of every halo taking part (halo: its index in the statement,
// which with m makes the message's tag; buffers: its HaloBuffers).
// fill(halo, m, message, payload) writes a send payload;
// consume(halo, m, message, payload) reads a received one.
template <class Backend>
class HaloSequence {
 public:
  HaloSequence(const Communicator& comm, HaloDirection direction) : comm_(comm), direction_(direction) {}

  template <class ForEachMessage, class Fill>
  void start(ForEachMessage&& for_each_message, Fill&& fill) const {
    const auto started = std::chrono::steady_clock::now();
    Requests& requests = statement_requests();
    Backend::halo_begin();
    for_each_message([&](int halo, HaloBuffers& buffers, std::size_t m, const HaloMessage& message) {
      if (message.to_self) return;
      HaloPayload& payload = buffers.receive[m];
      comm_.receive_async(payload.message_data(side), payload.bytes(), from_rank(message), tag(halo, m), requests);
    });
    for_each_message([&](int halo, HaloBuffers& buffers, std::size_t m, const HaloMessage& message) {
      HaloPayload& payload = buffers.send[m];
      fill(halo, m, message, payload.kernel_data(side));
      if (!message.to_self) payload.stage_to_host(side);
    });
    Backend::halo_staged();
    for_each_message([&](int halo, HaloBuffers& buffers, std::size_t m, const HaloMessage& message) {
      if (message.to_self) return;
      HaloPayload& payload = buffers.send[m];
      comm_.send_async(payload.message_data(side), payload.bytes(), to_rank(message), tag(halo, m), requests);
      ++communication_counters().messages;
      communication_counters().bytes += static_cast<std::int64_t>(payload.bytes());
    });
    ++communication_counters().exchanges;
    communication_counters().exchange_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }

  template <class ForEachMessage, class Consume>
  void finish(ForEachMessage&& for_each_message, Consume&& consume) const {
    const auto waiting = std::chrono::steady_clock::now();
    statement_requests().wait_all();
    communication_counters().wait_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - waiting).count();
    for_each_message([&](int halo, HaloBuffers& buffers, std::size_t m, const HaloMessage& message) {
      HaloPayload& payload = message.to_self ? buffers.send[m] : buffers.receive[m];
      if (!message.to_self) payload.stage_to_device(side);
      consume(halo, m, message, payload.kernel_data(side));
    });
    Backend::halo_end();
    communication_counters().exchange_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - waiting).count();
  }

 private:
  // The side of memory the backend's pack and unpack kernels work in
  // (platform/memory/staged_payload.hpp).
  static constexpr MemorySide side = Backend::memory_side;
  // A message goes from its source rank to its destination rank forward,
  // and back again backward.
  int from_rank(const HaloMessage& message) const {
    return direction_ == HaloDirection::forward ? message.source_rank : message.destination_rank;
  }
  int to_rank(const HaloMessage& message) const {
    return direction_ == HaloDirection::forward ? message.destination_rank : message.source_rank;
  }
  // Tags keep apart the messages of one statement between the same two
  // ranks: the halo and the message within it (0 .. 127), so the + and -
  // neighbours stay apart when they are the same rank.
  static int tag(int halo, std::size_t message) { return halo * 128 + static_cast<int>(message); }

  const Communicator& comm_;
  HaloDirection direction_;
};

}  // namespace latte
