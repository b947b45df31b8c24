#pragma once
// The links of the site-ordered formats (NERSC, ILDG, MILC), moved between
// a gauge field and a file one t-slice of this rank's block at a time.
//
// Such a file stores one record per site from some byte offset on: sites in
// Latte's lexicographic order (x fastest, then y, z, t; Geometry::
// global_index), at each site the links of mu = 0, 1, 2, 3, each link row
// by row, each entry as (re, im). Two-row records drop the third row, which
// is rebuilt on reading as the conjugated cross product of the first two
// (exact for SU(3); the rule random_su3 uses).
//
// Each rank moves its own block of the file (collective MPI-IO through
// SharedFile; lattice/layout/block_slices.hpp), one t-slice of the block at
// a time (dimension 3, the slowest), so a configuration never sits in memory
// twice: a 48^3 x 96 file is 6 GiB.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lattice/layout/block_slices.hpp"
#include "platform/comms/shared_file.hpp"
#include "platform/errors.hpp"
#include "platform/parallel.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/io/gauge_file_checks.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"
#include "solvers/qcd/io/stored_reals.hpp"

namespace latte {

// How a format stores a site's record.
struct LinkRecords {
  RealFormat reals;
  int rows = 3;  // 3, or 2 with the third rebuilt

  std::size_t reals_per_site() const { return static_cast<std::size_t>(4 * rows * 6); }
  std::int64_t site_bytes() const { return 4 * rows * 6 * reals.bytes; }
};

// Slice t of this rank's block of U as the records' reals, in double.
template <class R, class W>
void gather_slice(const GaugeField<R, W>& U, const BlockSlices& block, int t, int rows, std::vector<double>& values) {
  const std::size_t reals_per_link = static_cast<std::size_t>(rows) * 6;
  values.resize(static_cast<std::size_t>(block.sites_per_slice()) * 4 * reals_per_link);
  const std::array views{U[0].host_view(Access::read), U[1].host_view(Access::read), U[2].host_view(Access::read),
                         U[3].host_view(Access::read)};
  parallel_for(block.sites_per_slice(), [&](std::int64_t s) {
    const auto [outer, lane] = block.place(t, s);
    for (int mu = 0; mu < 4; ++mu) {
      const ColourMatrix<R> u = views[mu].load(LaneSite<R>{outer, lane});
      double* link = &values[(static_cast<std::size_t>(s) * 4 + mu) * reals_per_link];
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < 3; ++j) {
          link[6 * i + 2 * j] = static_cast<double>(u(i, j).re);
          link[6 * i + 2 * j + 1] = static_cast<double>(u(i, j).im);
        }
    }
  });
}

// The records' reals of slice t of this rank's block into U; two stored
// rows get the third rebuilt.
template <class R, class W>
void scatter_slice(GaugeField<R, W>& U, const BlockSlices& block, int t, int rows, const std::vector<double>& values) {
  const std::size_t reals_per_link = static_cast<std::size_t>(rows) * 6;
  // Access::read_write after the first slice: the slices written before stay.
  const Access access = t == 0 ? Access::write : Access::read_write;
  const std::array views{U[0].host_view(access), U[1].host_view(access), U[2].host_view(access),
                         U[3].host_view(access)};
  parallel_for(block.sites_per_slice(), [&](std::int64_t s) {
    const auto [outer, lane] = block.place(t, s);
    for (int mu = 0; mu < 4; ++mu) {
      const double* link = &values[(static_cast<std::size_t>(s) * 4 + mu) * reals_per_link];
      ColourMatrix<double> u{};
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < 3; ++j) u(i, j) = ComplexD(link[6 * i + 2 * j], link[6 * i + 2 * j + 1]);
      if (rows == 2)
        for (int j = 0; j < 3; ++j) {
          const int a = (j + 1) % 3, b = (j + 2) % 3;
          u(2, j) = conj(u(0, a) * u(1, b) - u(0, b) * u(1, a));
        }
      views[mu].store(LaneSite<R>{outer, lane},
                      transform_leaves<ColourMatrix<R>>([](double v) { return static_cast<R>(v); }, u));
    }
  });
}

// This rank's block of a file's records from `offset`, read slice by slice.
// A reader makes as many passes as it needs (checks first, then the field):
// each pass reads the block again, so no more than a slice is ever held.
// Every pass refuses links that hold a NaN or an infinity (collective, at
// its end: gauge_file_checks.hpp's NonFiniteLinks), so the first pass, the
// one that checks, refuses them before anything is stored.
class LinkSliceReader {
 public:
  // `file_name` names the file in errors (GaugeFileName::file()).
  LinkSliceReader(SharedFile& file, const BlockSlices& block, std::int64_t offset, const LinkRecords& records,
                  const Communicator& communicator, std::string file_name)
      : file_(file),
        block_(block),
        offset_(offset),
        records_(records),
        communicator_(communicator),
        file_name_(std::move(file_name)),
        raw_(static_cast<std::size_t>(block.sites_per_slice() * records.site_bytes())),
        values_(raw_.size() / static_cast<std::size_t>(records.reals.bytes)) {}

  // each(t, bytes of slice t as stored, their reals in double), t = 0, 1, ...
  template <class Each>
  void pass(Each&& each) {
    block_.view(file_, offset_, records_.site_bytes());
    const int reals_per_link = records_.rows * 6;
    NonFiniteLinks non_finite;
    for (int t = 0; t < block_.slices(); ++t) {
      file_.read_block(raw_.data(), block_.sites_per_slice());
      decode_reals(raw_.data(), values_.size(), records_.reals, values_.data());
      // The sites are located only where a slice holds a real that is not
      // finite (a site's global index takes a coordinate's arithmetic).
      if (!std::all_of(values_.begin(), values_.end(), [](double v) { return std::isfinite(v); }))
        for (std::int64_t s = 0; s < block_.sites_per_slice(); ++s)
          for (int mu = 0; mu < 4; ++mu)
            non_finite.note(block_.global_index(t, s), mu,
                            &values_[(static_cast<std::size_t>(s) * 4 + mu) * static_cast<std::size_t>(reals_per_link)],
                            reals_per_link);
      each(t, static_cast<const unsigned char*>(raw_.data()), static_cast<const std::vector<double>&>(values_));
    }
    non_finite.check(file_name_, communicator_, block_.global_dims());
  }

 private:
  SharedFile& file_;
  const BlockSlices& block_;
  std::int64_t offset_;
  LinkRecords records_;
  const Communicator& communicator_;
  std::string file_name_;
  std::vector<unsigned char> raw_;
  std::vector<double> values_;
};

// What a site-ordered writer refuses: a field of half the lattice, and
// reals of other than 4 or 8 bytes (`a_file`, `files`: "a NERSC file",
// "NERSC files" in the messages).
template <class R, class W>
void check_writable(const GaugeField<R, W>& U, const std::string& a_file, const std::string& files, int real_bytes) {
  if (U.geometry().checkerboarded())
    throw GeometryMismatch("Latte: " + a_file + " holds a whole lattice; this gauge field holds " +
                           U[0].layout().describe());
  if (real_bytes != 4 && real_bytes != 8)
    throw std::invalid_argument("Latte: " + files + " store 4- or 8-byte reals, not " + std::to_string(real_bytes));
}

// Writes this rank's block of U as records from `offset` of `file`, slice by
// slice; each(t, bytes of slice t) sees a slice's bytes before they are
// written (where a format sums them into its checksum).
template <class R, class W, class Each>
void write_link_slices(SharedFile& file, const GaugeField<R, W>& U, const BlockSlices& block, std::int64_t offset,
                       const LinkRecords& records, Each&& each) {
  block.view(file, offset, records.site_bytes());
  std::vector<double> values;
  std::vector<unsigned char> raw;
  for (int t = 0; t < block.slices(); ++t) {
    gather_slice(U, block, t, records.rows, values);
    raw.resize(values.size() * static_cast<std::size_t>(records.reals.bytes));
    encode_reals(values.data(), values.size(), records.reals, raw.data());
    each(t, static_cast<const unsigned char*>(raw.data()));
    file.write_block(raw.data(), block.sites_per_slice());
  }
}

// Runs `work` (a reader's transfers); a FileAccessError becomes a
// GaugeFileError "<context>: <what failed>".
template <class Work>
void with_file_access(const std::string& context, Work&& work) {
  try {
    work();
  } catch (const FileAccessError& error) {
    refuse(context + ": " + error.what());
  }
}

// Runs write(tmp), which writes the whole file to tmp = path.tmp, then moves
// it into place: a kill during the write leaves any previous file intact
// (collective; rank 0 renames, and a failure is thrown on every rank).
template <class Write>
void write_through_temporary(const Communicator& communicator, const GaugeFileName& name, Write&& write) {
  const std::string tmp = name.path + ".tmp";
  with_file_access("cannot write " + name.gauge_file(), [&] { write(tmp); });
  std::string failure;
  if (communicator.rank() == 0 && std::rename(tmp.c_str(), name.path.c_str()) != 0)
    failure = "Latte: cannot move '" + tmp + "' into place at '" + name.path + "'";
  failure = communicator.first_failure(failure);
  if (!failure.empty()) throw GaugeFileError(failure);
}

}  // namespace latte
