#pragma once
// Whether halo messages hand device memory to MPI directly (CUDA-aware MPI),
// so that payloads travel from device to device with no copy through host
// memory. Opt-in: the CMake option LATTE_CUDA_AWARE_MPI (cuda backend with
// MPI) defines the macro of the same name; without it, or in a build without
// MPI, the answer is no and payloads are staged through pinned host memory.
//
// Decided once per process, when the first message between ranks gets its
// buffers (MPI is running then):
//   - LATTE_CUDA_AWARE_MPI=0 in the environment: no;
//   - LATTE_CUDA_AWARE_MPI=1: yes, without asking (for MPI libraries that
//     are CUDA-aware but cannot say so, such as MPICH derivatives);
//   - otherwise Open MPI is asked at run time (MPIX_Query_cuda_support from
//     mpi-ext.h): the library the program runs with may not be the one it
//     was built against. If the answer is no, or the library cannot be asked,
//     rank 0 says so once on stderr and payloads are staged.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "platform/comms/communicator.hpp"

#if defined(LATTE_MPI) && defined(LATTE_CUDA_AWARE_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace latte::comms {

#if defined(LATTE_MPI) && defined(LATTE_CUDA_AWARE_MPI)
// Why the library cannot take device memory, or empty if it can.
inline std::string cuda_aware_mpi_refusal() {
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  if (MPIX_Query_cuda_support() == 1) return {};
  return "MPIX_Query_cuda_support() says this MPI library is not CUDA-aware";
#else
  return "this MPI library cannot be asked whether it is CUDA-aware (no MPIX_CUDA_AWARE_SUPPORT in mpi-ext.h; "
         "LATTE_CUDA_AWARE_MPI=1 insists)";
#endif
}
#endif

inline bool mpi_reads_device_memory() {
#if defined(LATTE_MPI) && defined(LATTE_CUDA_AWARE_MPI)
  static const bool direct = [] {
    const char* setting = std::getenv("LATTE_CUDA_AWARE_MPI");
    if (setting && std::string(setting) == "0") return false;
    if (setting && std::string(setting) == "1") return true;
    const std::string refusal = cuda_aware_mpi_refusal();
    if (refusal.empty()) return true;
    if (world_rank() == 0)
      std::fprintf(stderr, "Latte: built with LATTE_CUDA_AWARE_MPI, but %s: halo messages are staged through pinned "
                           "host memory\n", refusal.c_str());
    return false;
  }();
  return direct;
#else
  return false;
#endif
}

}  // namespace latte::comms
