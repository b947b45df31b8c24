#pragma once
// Copies of evaluators that outlive the call that prepared them: a shift
// whose neighbours live on other ranks keeps its operand's evaluator here,
// so that the statement plan can evaluate the operand on the sites other
// ranks need (the halo's "compressor") after the statement's evaluator tree
// has been built and moved around. Evaluators are trivially copyable, so a
// byte copy is a copy.
//
// One store per process, emptied by every statement plan (statements are
// issued one at a time, from one thread). Its chunks are kept: once a
// statement has run, repeating it allocates nothing.

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace latte {

class EvaluatorStore {
 public:
  template <class E>
  const E* keep(const E& evaluator) {
    static_assert(std::is_trivially_copyable_v<E>, "Latte: only trivially copyable evaluators are kept");
    std::byte* place = allocate(sizeof(E), alignof(E));
    std::memcpy(place, &evaluator, sizeof(E));
    return std::launder(reinterpret_cast<const E*>(place));
  }

  // Forget every copy (their memory is reused by the next statement).
  void clear() {
    chunk_ = 0;
    used_ = 0;
  }

 private:
  static constexpr std::size_t chunk_bytes = std::size_t(64) << 10;
  struct Chunk {
    std::unique_ptr<std::byte[]> bytes;
    std::size_t size;
  };

  std::byte* allocate(std::size_t size, std::size_t alignment) {
    for (;; ++chunk_, used_ = 0) {
      if (chunk_ == chunks_.size()) {
        const std::size_t bytes = size + alignment > chunk_bytes ? size + alignment : chunk_bytes;
        chunks_.push_back({std::make_unique<std::byte[]>(bytes), bytes});
      }
      Chunk& c = chunks_[chunk_];
      const auto base = reinterpret_cast<std::size_t>(c.bytes.get());
      const std::size_t start = (base + used_ + alignment - 1) / alignment * alignment - base;
      if (start + size <= c.size) {
        used_ = start + size;
        return c.bytes.get() + start;
      }
    }
  }

  std::vector<Chunk> chunks_;
  std::size_t chunk_ = 0;
  std::size_t used_ = 0;
};

inline EvaluatorStore& statement_evaluators() {
  static EvaluatorStore store;
  return store;
}

}  // namespace latte
