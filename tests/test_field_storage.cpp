// Field storage (platform/memory/aligned_buffer.hpp): freed buffers of 2 MiB and
// more are handed to the next buffer of the same size, smaller ones go back
// to the C library, and release_cached_buffers() gives everything back.

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "test_support.hpp"

namespace {

using latte::AlignedBuffer;
using latte::LargeBufferCache;

constexpr std::size_t MiB = std::size_t(1) << 20;

TEST(FieldStorage, AFreedLargeBufferIsHandedToTheNextOfItsSize) {
  latte::release_cached_buffers();
  void* first = nullptr;
  {
    AlignedBuffer a(3 * MiB);
    first = a.data();
  }
  // Kept at its size rounded up to huge pages.
  EXPECT_EQ(LargeBufferCache::instance().cached_bytes(), 4 * MiB);
  AlignedBuffer other_size(7 * MiB);
  EXPECT_NE(other_size.data(), first);
  AlignedBuffer same_size(3 * MiB + 1);  // the same 4 MiB
  EXPECT_EQ(same_size.data(), first);
  EXPECT_EQ(LargeBufferCache::instance().cached_bytes(), 0u);
}

TEST(FieldStorage, SmallBuffersAreNotKeptAndReleaseEmptiesTheCache) {
  latte::release_cached_buffers();
  { AlignedBuffer small(MiB); }
  EXPECT_EQ(LargeBufferCache::instance().cached_bytes(), 0u);
  {
    std::vector<AlignedBuffer> buffers;
    for (int i = 0; i < 20; ++i) buffers.emplace_back(2 * MiB);
  }
  // 20 freed, 16 kept (the oldest 4 went back).
  EXPECT_EQ(LargeBufferCache::instance().cached_bytes(), 16 * 2 * MiB);
  latte::release_cached_buffers();
  EXPECT_EQ(LargeBufferCache::instance().cached_bytes(), 0u);
}

TEST(FieldStorage, AFieldOnReusedStorageHoldsItsOwnValues) {
  const latte::Geometry geometry({16, 8, 8, 16});  // 3 MiB of double spinors
  latte::release_cached_buffers();
  {
    latte::Lattice<latte::Spinor<double>> a(geometry);
    a = latte::zero;
    latte::Spinor<double> value{};
    for (int s = 0; s < 4; ++s)
      for (int c = 0; c < 3; ++c) value.v[s].v[c] = latte::ComplexD(1.0, 2.0);
    latte::poke(a, {1, 2, 3, 4}, value);
    EXPECT_EQ(latte::norm2(a), 12 * 5.0);
  }
  // A new field starts at zero, also where it takes a's storage (on the
  // cpu backend it does: the field's host memory is that buffer).
  latte::Lattice<latte::Spinor<double>> b(geometry);
  EXPECT_EQ(latte::norm2(b), 0.0);
}

}  // namespace
