#pragma once
// CUDA failures become exceptions that say what Latte was doing (which
// allocation, which copy, which kernel) and what the runtime answered.
//
// Kernels run asynchronously: a fault inside one is reported by whichever
// CUDA call comes next. Latte remembers the last kernel it launched and names
// it in that report; with LATTE_CUDA_SYNC=1 in the environment every launch
// is followed by a synchronisation, so the kernel that failed is named
// exactly (slower; for debugging).

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include <cuda_runtime.h>

namespace latte {

class CudaError : public std::runtime_error {
 public:
  explicit CudaError(const std::string& what) : std::runtime_error(what) {}
};

namespace cuda {

// What the most recent launch was, for errors that surface later: a function
// that describes it, so that launching costs no string building.
using Describer = std::string (*)();
inline Describer& last_kernel_describer() {
  static Describer describer = nullptr;
  return describer;
}
inline std::string last_kernel() { return last_kernel_describer() ? last_kernel_describer()() : "none"; }

inline bool synchronous_launches() {
  static const bool on = [] {
    const char* value = std::getenv("LATTE_CUDA_SYNC");
    return value && *value && std::string(value) != "0";
  }();
  return on;
}

inline std::string error_text(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

// Throws if status is an error; `what` says what Latte was doing. A view,
// so that the literals of calls made every statement (a reduction's result,
// the halo stream's events) build no string, and repeated statements
// allocate nothing on the host: the message is built only on failure.
inline void check(cudaError_t status, std::string_view what) {
  if (status == cudaSuccess) return;
  std::string message = "Latte (CUDA): " + std::string(what) + " failed with " + error_text(status);
  if (status != cudaErrorMemoryAllocation && status != cudaErrorInvalidValue)
    message += " (last kernel launched: " + last_kernel() +
               (synchronous_launches() ? ")" : "; an earlier kernel may be the cause, run with LATTE_CUDA_SYNC=1 to "
                                               "stop at the first failing one)");
  throw CudaError(message);
}

inline std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) bytes /= 1024, ++u;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", bytes, units[u]);
  return text;
}

// cudaMalloc with an error that says how much was asked, for what, and how
// much the device had free.
inline void* allocate(std::size_t bytes, const std::string& what) {
  void* p = nullptr;
  const cudaError_t status = cudaMalloc(&p, bytes);
  if (status != cudaSuccess) {
    cudaGetLastError();  // an allocation failure is not sticky; clear it
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw CudaError("Latte (CUDA): cannot allocate " + format_bytes(static_cast<double>(bytes)) +
                    " of device memory for " + what + ": " + error_text(status) + " (" +
                    format_bytes(static_cast<double>(free_bytes)) + " free of " +
                    format_bytes(static_cast<double>(total_bytes)) + ")");
  }
  return p;
}

// Never throws: used by destructors, which may run after the runtime shut down.
inline void release(void* p) noexcept {
  if (p) cudaFree(p);
}

}  // namespace cuda
}  // namespace latte
