// Field residency on a device backend: data moves between host and device
// only when the other side needs it, and the transfer log counts (and, when
// tracing, flags) every copy. Built for the cuda backend (needs a GPU, CTest
// label gpu) and for the simt backend with emulated device memory, which runs
// the same bookkeeping on the CPU.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dsl/latte.hpp"
#include "lattice/fields/peek_poke.hpp"
#include "lattice/fields/random.hpp"

namespace latte {
namespace {

static_assert(backend::Default::memory_side == MemorySide::device, "this test is for backends on device memory");

TransferCounts operator-(const TransferCounts& a, const TransferCounts& b) {
  return {a.uploads - b.uploads,     a.downloads - b.downloads,     a.bytes - b.bytes,
          a.redundant - b.redundant, a.halo_copies - b.halo_copies, a.halo_bytes - b.halo_bytes};
}

void expect_value(const ComplexD& z, double re, double im) {
  EXPECT_EQ(z.re, re);
  EXPECT_EQ(z.im, im);
}

const Geometry& geometry() {
  static const Geometry g({8, 8, 8, 16});
  return g;
}

TEST(DeviceResidency, StatementsAndReductionsMoveNoData) {
  Lattice<ComplexD> a(geometry()), b(geometry()), c(geometry());
  const auto before = transfer_counts();
  a = ComplexD(1.0, -1.0);
  b = 2.0 * a + shift(a, 0, +1) * shift(a, 3, -1);
  c = b * a;
  c += shift(c, 2, +1);  // aliasing: evaluated into fresh device storage
  const double n = norm2(c);
  const auto moved = transfer_counts() - before;
  EXPECT_EQ(moved.uploads, 0);
  EXPECT_EQ(moved.downloads, 0);
  // b = 2(1-i) + (1-i)^2 = 2 - 4i; c = b a = (2-4i)(1-i) = -2 - 6i; c + c = -4 - 12i
  EXPECT_DOUBLE_EQ(n, 160.0 * static_cast<double>(geometry().volume()));
}

TEST(DeviceResidency, PeekCopiesOnceAndPokeMakesTheDeviceStale) {
  Lattice<ComplexD> a(geometry()), b(geometry());
  a = ComplexD(3.0, 0.0);
  auto before = transfer_counts();
  expect_value(peek(a, {1, 2, 3, 4}), 3.0, 0.0);
  expect_value(peek(a, {7, 7, 7, 15}), 3.0, 0.0);  // the host copy is current now
  auto moved = transfer_counts() - before;
  EXPECT_EQ(moved.downloads, 1);
  EXPECT_EQ(moved.uploads, 0);
  EXPECT_EQ(moved.bytes, static_cast<std::int64_t>(a.bytes()));

  poke(a, {0, 0, 0, 0}, ComplexD(5.0, 1.0));
  poke(a, {1, 0, 0, 0}, ComplexD(6.0, 2.0));
  before = transfer_counts();
  b = 2.0 * a;  // the device copy is stale: one upload, then the kernel
  moved = transfer_counts() - before;
  EXPECT_EQ(moved.uploads, 1);
  EXPECT_EQ(moved.downloads, 0);
  expect_value(peek(b, {0, 0, 0, 0}), 10.0, 2.0);
  expect_value(peek(b, {1, 0, 0, 0}), 12.0, 4.0);
  expect_value(peek(b, {2, 0, 0, 0}), 6.0, 0.0);
}

TEST(DeviceResidency, HostInitialisationUploadsOnceAndDownloadsNothing) {
  Lattice<Spinor<double>> psi(geometry()), chi(geometry());
  ParallelRng rng(7);
  const auto before = transfer_counts();
  rng.gaussian(psi);  // overwrites every site on the host: no download first
  chi = 0.5 * psi;
  chi += psi;
  const auto moved = transfer_counts() - before;
  EXPECT_EQ(moved.downloads, 0);
  EXPECT_EQ(moved.uploads, 1);
  EXPECT_NEAR(norm2(chi), 2.25 * norm2(psi), 1e-9 * norm2(chi));
}

TEST(DeviceResidency, TracingFlagsACopyThatMovesUnchangedData) {
  auto& log = TransferLog::instance();
  log.set_tracing(true);
  Lattice<ComplexD> a(geometry()), b(geometry());
  a = ComplexD(1.0, 2.0);
  (void)a.host_view(Access::read);  // download: the host now holds what the device holds
  auto before = transfer_counts();
  (void)a.host_view(Access::read_write);  // asks to write, writes nothing
  b = a;                                  // upload of identical contents
  auto moved = transfer_counts() - before;
  EXPECT_EQ(moved.uploads, 1);
  EXPECT_EQ(moved.redundant, 1);

  before = transfer_counts();
  poke(a, {0, 0, 0, 0}, ComplexD(9.0, 9.0));  // a real change
  b = a;
  moved = transfer_counts() - before;
  EXPECT_EQ(moved.uploads, 1);
  EXPECT_EQ(moved.redundant, 0);
  log.set_tracing(false);
}

TEST(DeviceResidency, ReductionsAreDeterministicAndMatchTheHost) {
  Lattice<Spinor<double>> psi(geometry());
  ParallelRng(3).gaussian(psi);
  const double device = norm2(psi);
  EXPECT_EQ(device, norm2(psi));  // bit for bit, same launch shape
  const double host = norm2<backend::Simt>(psi);
  EXPECT_NEAR(device, host, 1e-12 * host);
  const ComplexD device_inner = innerProduct(psi, 2.0 * psi);
  EXPECT_NEAR(device_inner.re, 2.0 * host, 1e-12 * host);
  EXPECT_NEAR(device_inner.im, 0.0, 1e-12 * host);
}

}  // namespace
}  // namespace latte
