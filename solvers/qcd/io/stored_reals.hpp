#pragma once
// Numbers as the gauge files store them: integers and IEEE reals of 32 or
// 64 bits, big- or little-endian, to and from the host's. Every format's
// reader and writer moves its numbers through these, so a file's bytes do
// not depend on the host's byte order.
//
// A real is decoded through its own width (a 32-bit real becomes the float
// it is, then that float's double) and encoded by rounding the double to
// that width: a 32-bit file read into double links keeps the float values.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace latte {

template <class Word>
Word byte_swapped(Word w) {
  unsigned char bytes[sizeof(Word)];
  std::memcpy(bytes, &w, sizeof(Word));
  std::reverse(bytes, bytes + sizeof(Word));
  std::memcpy(&w, bytes, sizeof(Word));
  return w;
}

// A word between the host's order and the file's (the swap is its own
// inverse, so one function serves both ways).
template <class Word>
Word in_order(Word w, bool big_endian) {
  return big_endian == (std::endian::native == std::endian::big) ? w : byte_swapped(w);
}

// The word of sizeof(Word) bytes at `at`, stored in the given order.
template <class Word>
Word load_word(const unsigned char* at, bool big_endian) {
  Word w;
  std::memcpy(&w, at, sizeof(Word));
  return in_order(w, big_endian);
}

template <class Word>
void store_word(unsigned char* at, Word value, bool big_endian) {
  const Word w = in_order(value, big_endian);
  std::memcpy(at, &w, sizeof(Word));
}

// How a file stores its reals.
struct RealFormat {
  int bytes = 8;  // 8: IEEE 64-bit, 4: IEEE 32-bit
  bool big_endian = true;
};

namespace stored_reals_detail {

template <class Real, class Word>
void decode(const unsigned char* raw, std::size_t count, bool big_endian, double* out) {
  static_assert(sizeof(Real) == sizeof(Word));
  for (std::size_t i = 0; i < count; ++i) {
    const Word w = load_word<Word>(raw + i * sizeof(Word), big_endian);
    Real value;
    std::memcpy(&value, &w, sizeof(Word));
    out[i] = static_cast<double>(value);
  }
}

template <class Real, class Word>
void encode(const double* values, std::size_t count, bool big_endian, unsigned char* raw) {
  static_assert(sizeof(Real) == sizeof(Word));
  for (std::size_t i = 0; i < count; ++i) {
    const Real value = static_cast<Real>(values[i]);
    Word w;
    std::memcpy(&w, &value, sizeof(Word));
    store_word(raw + i * sizeof(Word), w, big_endian);
  }
}

}  // namespace stored_reals_detail

// `count` reals of `format` at `raw`, as doubles into `out`.
inline void decode_reals(const unsigned char* raw, std::size_t count, RealFormat format, double* out) {
  if (format.bytes == 8)
    stored_reals_detail::decode<double, std::uint64_t>(raw, count, format.big_endian, out);
  else
    stored_reals_detail::decode<float, std::uint32_t>(raw, count, format.big_endian, out);
}

// `count` doubles as reals of `format` into `raw` (count * format.bytes bytes).
inline void encode_reals(const double* values, std::size_t count, RealFormat format, unsigned char* raw) {
  if (format.bytes == 8)
    stored_reals_detail::encode<double, std::uint64_t>(values, count, format.big_endian, raw);
  else
    stored_reals_detail::encode<float, std::uint32_t>(values, count, format.big_endian, raw);
}

}  // namespace latte
