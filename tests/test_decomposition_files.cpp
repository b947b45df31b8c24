// Files of the whole lattice from a lattice spread over ranks: NERSC gauge
// files and lattice-Boltzmann checkpoints (with and without a force
// field) are the same bytes as one rank writes, read back into the very
// bits, and a corrupt file is refused on every rank with the same message
// and the field unchanged; gathered
// fields, VTK files and PNG pictures are the same as from one rank; a
// solver that fails fails alike on every rank. Run
// under mpirun with 2, 4 and 16 ranks, and at one rank in the ordinary
// suite (forced communication).

#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "decomposition_support.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/io/checkpoint.hpp"
#include "solvers/lbm/io/png_output.hpp"
#include "solvers/lbm/io/vtk_output.hpp"
#include "solvers/lbm/walls/boundaries.hpp"
#include "solvers/qcd/io/nersc_gauge_file.hpp"
#include "solvers/qcd/solves/wilson_solve.hpp"

namespace latte::testing {
namespace {

// A path in the temporary directory, distinct per test, number of ranks
// and (for files each rank writes alone) rank.
std::string scratch(const std::string& name, bool per_rank = false) {
  return ::testing::TempDir() + "latte_files_np" + std::to_string(world().size()) + "_" + name +
         (per_rank ? "_rank" + std::to_string(world().rank()) : "");
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The same bytes in both files, on every rank (agreed).
::testing::AssertionResult same_file(const std::string& a, const std::string& b) {
  const std::string x = contents(a), y = contents(b);
  if (world().all_true(!x.empty() && x == y)) return ::testing::AssertionSuccess();
  std::size_t first = 0;
  while (first < x.size() && first < y.size() && x[first] == y[first]) ++first;
  return ::testing::AssertionFailure() << a << " (" << x.size() << " bytes) and " << b << " (" << y.size()
                                       << " bytes) differ on some rank; on rank " << world().rank()
                                       << " first at byte " << first;
}

// Rank 0 flips one byte at `offset` from the end of the file; all wait.
void corrupt(const std::string& path, std::int64_t from_end) {
  if (world().rank() == 0) {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(-from_end, std::ios::end);
    const char c = static_cast<char>(file.peek() ^ 0x10);
    file.seekp(-from_end, std::ios::end);
    file.put(c);
  }
  world().barrier();
}

// The message of the error `f` throws on every rank, and whether every rank
// had the very same message.
template <class Error, class F>
std::pair<std::string, bool> error_everywhere(F&& f) {
  const std::string message = error_of<Error>(std::forward<F>(f));
  std::vector<std::uint64_t> hashes(static_cast<std::size_t>(world().size()));
  const std::uint64_t mine = std::hash<std::string>{}(message);
  world().all_gather(&mine, sizeof mine, hashes.data());
  bool same = !message.empty();
  for (std::uint64_t h : hashes) same = same && h == hashes.front();
  return {message, world().all_true(same)};
}

template <class R>
void expect_nersc_files_match(const NerscWriteOptions& options, const std::string& name) {
  GaugeField<R> one(replicated(lattice4));
  ParallelRng rng(5);
  one.set_random(rng);
  const std::string one_path = scratch(name + "_one.nersc", true), many_path = scratch(name + "_many.nersc");
  write_nersc(one, one_path, options);
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    GaugeField<R> many(g);
    ParallelRng many_rng(5);
    many.set_random(many_rng);
    write_nersc(many, many_path, options);
    EXPECT_TRUE(same_file(many_path, one_path)) << "written";

    // Read back, on the many ranks and on one.
    GaugeField<R> back(g), whole(replicated(lattice4));
    read_nersc(back, many_path);
    read_nersc(whole, many_path);
    for (int mu = 0; mu < 4; ++mu) {
      EXPECT_TRUE(same_as_one_rank(back[mu], whole[mu])) << "mu = " << mu;
      if (options.real_bytes == static_cast<int>(sizeof(R)) && !options.two_rows) {
        EXPECT_TRUE(same_as_one_rank(back[mu], one[mu])) << "mu = " << mu;
      }
    }

    // A flipped bit in the links: refused on every rank, field unchanged.
    corrupt(many_path, 100);
    GaugeField<R> kept(g);
    ParallelRng other(9);
    kept.set_random(other);
    GaugeField<R> before(g);
    for (int mu = 0; mu < 4; ++mu) before[mu] = kept[mu];
    const auto [message, same] = error_everywhere<GaugeFileError>([&] { read_nersc(kept, many_path); });
    EXPECT_TRUE(same) << message;
    EXPECT_NE(message.find("is corrupt: the checksum of its links"), std::string::npos) << message;
    for (int mu = 0; mu < 4; ++mu) EXPECT_TRUE(same_as_one_rank(kept[mu], before[mu])) << "mu = " << mu;
  });
}

TEST(DecompositionFiles, NerscDoubleIsTheSameBytesAsOneRank) { expect_nersc_files_match<double>({}, "double"); }

TEST(DecompositionFiles, NerscSingleTwoRowsLittleEndianIsTheSameBytesAsOneRank) {
  NerscWriteOptions options;
  options.real_bytes = 4;
  options.big_endian = false;
  options.two_rows = true;
  expect_nersc_files_match<float>(options, "single_two_rows");
}

TEST(DecompositionFiles, MissingNerscFileIsRefusedOnEveryRank) {
  GaugeField<double> U(decomposed(lattice4, default_process_grid(lattice4, world().size())));
  const auto [message, same] =
      error_everywhere<GaugeFileError>([&] { read_nersc(U, scratch("no_such_file.nersc")); });
  EXPECT_TRUE(same) << message;
  EXPECT_NE(message.find("cannot open"), std::string::npos) << message;
}

// A D2Q9 cavity a few steps in: the populations are not at equilibrium.
using Cavity = lbm::Simulation<lbm::D2Q9, double, lbm::Bgk>;
struct CavityRun {
  Cavity sim;
  explicit CavityRun(const Geometry& g, long steps) : sim(g, lbm::Parameters{0.6}) {
    const int n = g.dims()[0];
    Cavity::Boundary b(g);
    lbm::mark_solid(b, [&](const Coordinate& x) { return x[0] == 0 || x[0] == n - 1 || x[1] == 0 || x[1] == n - 1; },
                    [&](const Coordinate& x) { return std::array<double, 2>{x[1] == n - 1 ? 0.1 : 0.0, 0.0}; });
    sim.set_boundary(b);
    sim.run(steps);
  }
};

TEST(DecompositionFiles, CheckpointIsTheSameBytesAsOneRankAndRestartsAnywhere) {
  const Coordinate dims{16, 16};
  const CavityRun one(replicated(dims), 30);
  const std::string one_path = scratch("one.chk", true), many_path = scratch("many.chk");
  lbm::write_checkpoint(one.sim, one_path);
  for_each_decomposition(dims, [&](const Geometry& g) {
    const CavityRun many(g, 30);
    lbm::write_checkpoint(many.sim, many_path);
    EXPECT_TRUE(same_file(many_path, one_path)) << "written";

    CavityRun back(g, 0), whole(replicated(dims), 0);
    lbm::read_checkpoint(back.sim, many_path);
    lbm::read_checkpoint(whole.sim, many_path);
    EXPECT_EQ(back.sim.time(), 30);
    EXPECT_EQ(whole.sim.time(), 30);
    EXPECT_TRUE(same_as_one_rank(back.sim.populations(), one.sim.populations()));
    EXPECT_TRUE(same_as_one_rank(whole.sim.populations(), one.sim.populations()));
    // Resumed on many ranks, the run goes on as if never stopped.
    CavityRun on(replicated(dims), 40);
    back.sim.run(10);
    EXPECT_TRUE(same_as_one_rank(back.sim.populations(), on.sim.populations()));

    // A flipped bit: refused on every rank, populations and clock unchanged.
    corrupt(many_path, 20);
    CavityRun kept(g, 3);
    const auto [message, same] = error_everywhere<std::runtime_error>([&] { lbm::read_checkpoint(kept.sim, many_path); });
    EXPECT_TRUE(same) << message;
    EXPECT_NE(message.find("fails its checksum"), std::string::npos) << message;
    const CavityRun three(replicated(dims), 3);
    EXPECT_TRUE(same_as_one_rank(kept.sim.populations(), three.sim.populations()));
    EXPECT_EQ(kept.sim.time(), 3);
  });
}

// A force varying in x and y (each rank pokes its own sites), so that a
// record's force components differ from site to site.
Cavity::VectorField cavity_force(const Geometry& g, double scale) {
  Cavity::VectorField force(g);
  for (int x = 0; x < g.dims()[0]; ++x)
    for (int y = 0; y < g.dims()[1]; ++y)
      poke(force, {x, y}, RealVector<double, 2>{{scale * std::sin(0.7 * x + 0.3 * y), -scale * std::cos(0.9 * x)}});
  return force;
}
struct ForcedCavityRun : CavityRun {
  ForcedCavityRun(const Geometry& g, long steps) : CavityRun(g, 0) {
    sim.set_force(cavity_force(g, 1e-5));
    sim.run(steps);
  }
};

// With a force field each site's record carries its force (version 3): the
// file is still the same bytes on any number of ranks, and a simulation
// given a field of zeros by set_force reads back populations and field in
// their very bits and goes on as the run that never stopped.
TEST(DecompositionFiles, CheckpointWithAForceFieldIsTheSameBytesAsOneRank) {
  const Coordinate dims{16, 16};
  const ForcedCavityRun one(replicated(dims), 30);
  const std::string one_path = scratch("one_forced.chk", true), many_path = scratch("many_forced.chk");
  lbm::write_checkpoint(one.sim, one_path);
  const ForcedCavityRun on(replicated(dims), 40);
  for_each_decomposition(dims, [&](const Geometry& g) {
    const ForcedCavityRun many(g, 30);
    lbm::write_checkpoint(many.sim, many_path);
    EXPECT_TRUE(same_file(many_path, one_path)) << "written";

    CavityRun back(g, 0);
    back.sim.set_force(Cavity::VectorField(g));
    lbm::read_checkpoint(back.sim, many_path);
    EXPECT_EQ(back.sim.time(), 30);
    EXPECT_TRUE(same_as_one_rank(back.sim.force_field(), one.sim.force_field()));
    EXPECT_TRUE(same_as_one_rank(back.sim.populations(), one.sim.populations()));
    back.sim.run(10);
    EXPECT_TRUE(same_as_one_rank(back.sim.populations(), on.sim.populations()));
  });
}

TEST(DecompositionFiles, GatheredFieldsVtkAndPngAreTheSameAsOneRank) {
  const Coordinate dims{16, 16};
  const CavityRun one(replicated(dims), 20);
  Cavity::VectorField u_one(one.sim.geometry());
  u_one = one.sim.velocity();
  const std::vector<double> ux_one = lbm::gather_component(u_one, 0), uy_one = lbm::gather_component(u_one, 1);
  lbm::VtiWriter(one.sim.geometry()).vector("velocity", u_one).write(scratch("one.vti"));
  lbm::write_png(scratch("one.png"), ux_one, 16, 16,
                 lbm::FieldPicture("u_x", true).with_streamlines(ux_one, uy_one));
  for_each_decomposition(dims, [&](const Geometry& g) {
    const CavityRun many(g, 20);
    Cavity::VectorField u(g);
    u = many.sim.velocity();
    EXPECT_TRUE(world().all_true(lbm::gather_component(u, 0) == ux_one && lbm::gather_component(u, 1) == uy_one));
    lbm::VtiWriter(g).vector("velocity", u).write(scratch("many.vti"));
    lbm::write_png(scratch("many.png"), lbm::gather_component(u, 0), 16, 16,
                   lbm::FieldPicture("u_x", true).with_streamlines(lbm::gather_component(u, 0),
                                                                    lbm::gather_component(u, 1)));
    // Written once, by rank 0: the files are there for rank 0 to compare.
    EXPECT_TRUE(world().all_true(world().rank() != 0 || contents(scratch("many.vti")) == contents(scratch("one.vti"))));
    EXPECT_TRUE(world().all_true(world().rank() != 0 || contents(scratch("many.png")) == contents(scratch("one.png"))));
  });
  const auto [message, same] =
      error_everywhere<std::runtime_error>([&] { lbm::VtiWriter(one.sim.geometry()).write("/no/such/directory/x.vti"); });
  EXPECT_TRUE(same) << message;
  EXPECT_NE(message.find("cannot write /no/such/directory/x.vti"), std::string::npos) << message;
}

// A solve that cannot converge in its iteration limit throws SolverError on
// every rank, with the same message (the residuals are global reductions,
// so every rank sees the same history).
TEST(DecompositionErrors, SolverErrorsAreTheSameOnEveryRank) {
  for_each_decomposition(lattice4, [&](const Geometry& g) {
    GaugeField<double> U(g);
    ParallelRng rng(3);
    U.set_random(rng);
    const WilsonDirac<double> M(U, 0.1);
    Lattice<Spinor<double>> b(g), x(g);
    rng.gaussian(b);
    x = zero;
    const auto [message, same] = error_everywhere<SolverError>([&] { solve_wilson(M, x, b, SolverControl{1e-14, 5}); });
    EXPECT_TRUE(same) << message;
    EXPECT_FALSE(message.empty());
  });
}

}  // namespace
}  // namespace latte::testing
