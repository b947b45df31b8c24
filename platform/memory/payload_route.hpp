#pragma once
// How a halo message's payload reaches its reader, decided when the
// payload's buffers are made (lattice/layout/halo_exchange.hpp). Pack kernels write
// a payload and unpack kernels read one where statements run; what differs
// is what MPI is handed.

namespace latte {

enum class PayloadRoute {
  in_place,  // a message to this rank: unpack reads what pack wrote, MPI never sees it
  staged,    // MPI reads and writes a pinned host copy, filled and emptied by asynchronous copies
  direct,    // MPI reads and writes device memory itself (CUDA-aware MPI)
};

}  // namespace latte
