// Counts every allocation through operator new in the program it is linked
// into (tests/test_decomposition.cpp: repeated statements allocate nothing).
// A translation unit of its own, so that no call site sees malloc and free
// behind new and delete.

#include <atomic>
#include <cstdlib>
#include <new>

std::atomic<long> allocations{0};

void* operator new(std::size_t bytes) {
  ++allocations;
  if (void* p = std::malloc(bytes ? bytes : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
