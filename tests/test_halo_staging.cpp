// Halo payloads on device memory (cuda, and simt with emulated device
// memory): a message between ranks is staged through pinned host buffers (or
// handed to a CUDA-aware MPI in device memory), a message a rank sends itself
// never leaves the device and gets no pinned memory, and a statement repeated
// with forced communication moves no field between host and device and
// allocates nothing. The simt-device build checks this on the CPU with
// emulated pinned memory whose copies to the host are held back until the
// backend waits for them (platform/memory/emulated_staging.hpp); under
// mpirun its messages really cross ranks. Builds on host memory stage
// nothing and skip it.

#include <atomic>

#include "decomposition_support.hpp"

// Allocations through operator new in this program (tests/allocation_counter.cpp).
extern std::atomic<long> allocations;

namespace latte::testing {
namespace {

#if defined(LATTE_EMULATE_DEVICE_MEMORY) || defined(LATTE_BACKEND_CUDA)

TransferCounts difference(const TransferCounts& a, const TransferCounts& b) {
  return {a.uploads - b.uploads,     a.downloads - b.downloads,     a.bytes - b.bytes,
          a.redundant - b.redundant, a.halo_copies - b.halo_copies, a.halo_bytes - b.halo_bytes};
}

// Messages of the statements' shift along mu whose buffers are not what their
// route asks for: pinned host memory for MPI when staged, the device buffer
// itself when direct, nothing for MPI when the message stays on this rank.
int misplaced_buffers(const Lattice<double>& a, int mu, int step) {
  const DisplacementTable& table = a.layout().unit_displacement(mu, step);
  if (!table.halo) return 0;
  // The buffers of the statement's one use of this halo by a double field.
  HaloBuffers& buffers = table.halo->buffers(sizeof(double), 1, Lattice<double>::nsimd, 0);
  int misplaced = 0;
  for (std::size_t m = 0; m < table.halo->messages.size(); ++m) {
    HaloPayload& send = buffers.send[m];
    HaloPayload& receive = buffers.receive[m];
    misplaced += HaloPayload::is_pinned(send.kernel_data(MemorySide::device));  // packed in device memory
    if (table.halo->messages[m].to_self) {
      misplaced += send.route() != PayloadRoute::in_place || send.message_data(MemorySide::device) != nullptr || receive.bytes() != 0;
      continue;
    }
    const PayloadRoute route = payload_route_between_ranks();
    misplaced += send.route() != route || receive.route() != route;
    if (route == PayloadRoute::staged)
      misplaced += !HaloPayload::is_pinned(send.message_data(MemorySide::device)) + !HaloPayload::is_pinned(receive.message_data(MemorySide::device));
    else
      misplaced += send.message_data(MemorySide::device) != send.kernel_data(MemorySide::device) || receive.message_data(MemorySide::device) != receive.kernel_data(MemorySide::device);
  }
  return misplaced;
}

TEST(HaloStaging, MessagesGoThroughPinnedBuffersAndRepeatsMoveNoFieldAndAllocateNothing) {
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    Lattice<double> a(g), b(g);
    Lattice<double> whole_a(replicated(lattice4)), whole_b(replicated(lattice4));
    auto statements = [](Lattice<double>& x, Lattice<double>& y) {
      x = 0.5 * x + 1.0;
      y = shift(x, 0, +1) + 2.0 * shift(x, 1, -1) + 3.0 * shift(x, 2, +1) - shift(x, 3, -1);
      x = y - 0.25 * shift(y, 3, +1);
    };
    ParallelRng(11).gaussian(a);  // global coordinates: the same field on any decomposition
    ParallelRng(11).gaussian(whole_a);
    statements(a, b);  // tables, plans' buffers and pinned memory made here
    statements(a, b);

    const TransferCounts transfers = transfer_counts();
    const CommunicationCounters sent = communication_counters();
    const long allocated = allocations.load();
#if defined(LATTE_EMULATE_DEVICE_MEMORY)
    const StagingCounts staging = staging_counts();
#endif
    for (int k = 0; k < 3; ++k) statements(a, b);
    const TransferCounts moved = difference(transfer_counts(), transfers);
    const long new_allocations = allocations.load() - allocated;
    const std::int64_t messages = communication_counters().messages - sent.messages;
    const std::int64_t bytes = communication_counters().bytes - sent.bytes;

    EXPECT_TRUE(world().all_true(moved.uploads == 0 && moved.downloads == 0))
        << moved.uploads << " uploads and " << moved.downloads << " downloads of fields";
    EXPECT_TRUE(world().all_true(new_allocations == 0)) << new_allocations << " allocations";
    // Every message to another rank is copied out of the device once and
    // every received one into it once, unless MPI reads device memory.
    const bool staged = messages == 0 || payload_route_between_ranks() == PayloadRoute::staged;
    EXPECT_TRUE(world().all_true(moved.halo_copies == (staged ? 2 * messages : 0) &&
                                 moved.halo_bytes == (staged ? 2 * bytes : 0)))
        << moved.halo_copies << " halo copies of " << moved.halo_bytes << " bytes for " << messages << " messages of "
        << bytes << " bytes";
#if defined(LATTE_EMULATE_DEVICE_MEMORY)
    const StagingCounts now = staging_counts();
    EXPECT_TRUE(world().all_true(now.pinned_allocations == staging.pinned_allocations &&
                                 now.unpinned_copies == staging.unpinned_copies &&
                                 now.staged_copies - staging.staged_copies == 2 * messages))
        << now.pinned_allocations - staging.pinned_allocations << " pinned allocations, "
        << now.unpinned_copies - staging.unpinned_copies << " staging copies from unpinned memory, "
        << now.staged_copies - staging.staged_copies << " staged copies for " << messages << " messages";
#endif
    const int misplaced = misplaced_buffers(a, 0, +1) + misplaced_buffers(a, 1, -1) + misplaced_buffers(a, 2, +1) +
                          misplaced_buffers(a, 3, -1) + misplaced_buffers(a, 3, +1);
    EXPECT_TRUE(world().all_true(misplaced == 0)) << misplaced << " payload buffers not of their route's kind";

    for (int k = 0; k < 5; ++k) statements(whole_a, whole_b);
    EXPECT_TRUE(same_as_one_rank(a, whole_a));
  });
}

#else

TEST(HaloStaging, MessagesGoThroughPinnedBuffersAndRepeatsMoveNoFieldAndAllocateNothing) {
  GTEST_SKIP() << "fields live in host memory: halo payloads are never staged";
}

#endif

}  // namespace
}  // namespace latte::testing
