#pragma once
// Gauge configurations in openQCD's exported format (export_cnfg /
// import_cnfg of openQCD's archive.c, also read by Grid's OpenQcdIO):
//
//   int32 N0 N1 N2 N3    the lattice extents, time first: N0 = t, N1 = x,
//                        N2 = y, N3 = z (Latte's extents 3, 0, 1, 2)
//   double plaq          the average over all 6 N0 N1 N2 N3 plaquettes of
//                        Re tr U_p, NOT divided by 3 (3 on the free field;
//                        3 * average_plaquette)
//   links                for each odd site (t + x + y + z odd), in
//                        lexicographic order with t slowest and z fastest
//                        (x0, x1, x2, x3 = t, x, y, z), eight 3x3 complex
//                        matrices, row by row, (re, im):
//                          U_0(x), U_0(x - 0^), U_1(x), U_1(x - 1^),
//                          U_2(x), U_2(x - 2^), U_3(x), U_3(x - 3^)
//                        directions in openQCD's order 0 = t, 1 = x, 2 = y,
//                        3 = z. Every link is stored once: the links leaving
//                        odd sites, and those leaving even sites as the
//                        backward links of their odd neighbours.
// Every number is little-endian; reals are 64-bit (openQCD's field is
// double). openQCD needs even extents; so does this format's pairing of
// sites along z.
//
// No checksum: reading checks the file's size against its extents, that
// every link is finite (no NaN, no infinity; the first one is named), and
// the plaquette to openQCD's own tolerance (read_cnfg: sqrt(64 * 6V) eps +
// 64 (|p0| + |p1|) eps on the plaquette sum, eps = DBL_EPSILON). A file
// failing them leaves the field as it was.
//
// In parallel each rank moves its block: the odd sites pair up along z
// (one of z = 2k, 2k + 1 is odd), so the file is an array of 1152-byte
// records over (z/2, y, x, t) and a rank's block a subarray of it, given an
// even local extent in z. The backward links of a rank's odd sites at its
// lower faces belong to the neighbouring rank: they are brought over by a
// shift, the DSL's halo exchange.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "dsl/expr/shift.hpp"
#include "platform/comms/shared_file.hpp"
#include "platform/parallel.hpp"
#include "solvers/qcd/gauge/gauge_field.hpp"
#include "solvers/qcd/gauge/gauge_observables.hpp"
#include "solvers/qcd/io/gauge_file_checks.hpp"
#include "solvers/qcd/io/gauge_file_error.hpp"
#include "solvers/qcd/io/gauge_file_header.hpp"
#include "solvers/qcd/io/link_slices.hpp"
#include "solvers/qcd/io/stored_reals.hpp"

namespace latte {

struct OpenQcdHeader : StoredLattice {  // extents in Latte's order: x, y, z, t
  double plaquette = 0;  // as the file gives it (normalised to 3)
  static constexpr std::int64_t header_bytes = 24;
  static constexpr std::int64_t record_bytes = 8 * 18 * 8;  // the 8 links of one odd site

  std::int64_t file_bytes() const { return header_bytes + volume() / 2 * record_bytes; }
};

namespace openqcd_detail {

inline std::string file(const std::string& path) { return GaugeFileName{"openQCD", path}.file(); }

// Latte's direction of openQCD's direction mu (0 = t, 1 = x, 2 = y, 3 = z).
constexpr int latte_direction(int openqcd_mu) { return (openqcd_mu + 3) % 4; }

// Every number of the file: little-endian, reals of 64 bits.
inline constexpr RealFormat reals{8, false};

// openQCD's plaquette tolerance for the average of 6V plaquettes.
inline bool plaquette_agrees(double ours, double file, std::int64_t volume) {
  const double count = 6.0 * static_cast<double>(volume), eps = std::numeric_limits<double>::epsilon();
  const double tolerance_on_sum = std::sqrt(64.0 * count) * eps + 64.0 * count * (std::abs(ours) + std::abs(file)) * eps;
  return std::abs(ours - file) * count <= tolerance_on_sum;
}

// The file's records as an array over (z/2, y, x, t): this rank's block of it.
struct RecordBlock {
  Coordinate global, local, origin;
};

}  // namespace openqcd_detail

// Parses and checks the 24-byte header of a file of `file_bytes` bytes.
inline OpenQcdHeader parse_openqcd_header(const unsigned char* bytes, std::int64_t file_bytes, const std::string& path) {
  const std::string file = openqcd_detail::file(path);
  check_room_for_header(file, file_bytes, OpenQcdHeader::header_bytes, "header");
  std::int32_t n[4];
  OpenQcdHeader header;
  for (int mu = 0; mu < 4; ++mu) {
    n[mu] = load_word<std::int32_t>(bytes + 4 * mu, false);
    if (n[mu] < 2 || n[mu] > 1000000 || n[mu] % 2 != 0)
      refuse(file + ": N" + std::to_string(mu) + " = " + std::to_string(n[mu]) +
             " is not an even lattice extent of at most 10^6 (not an openQCD configuration?)");
  }
  // Each extent is plausible; their product, times the bytes per site, must
  // fit in 64 bits too.
  SiteCount sites(max_sites_of(OpenQcdHeader::record_bytes));
  for (int mu = 0; mu < 4; ++mu)
    if (!sites.times(n[mu]))
      refuse(file + ": N0..N3 = " + std::to_string(n[0]) + " " + std::to_string(n[1]) + " " + std::to_string(n[2]) +
             " " + std::to_string(n[3]) + " is too large a lattice (its links would need more than 2^63 bytes)");
  header.extents = {n[1], n[2], n[3], n[0]};
  decode_reals(bytes + 16, 1, openqcd_detail::reals, &header.plaquette);
  if (!std::isfinite(header.plaquette) || std::abs(header.plaquette) > 3.0 + 1e-9)
    refuse(file + ": plaquette " + std::to_string(header.plaquette) +
           " is not the average of Re tr of SU(3) plaquettes (|p| <= 3)");
  check_file_size(file, header.file_bytes(),
                  "for N0..N3 = " + std::to_string(header.extents[3]) + " " + std::to_string(header.extents[0]) + " " +
                      std::to_string(header.extents[1]) + " " + std::to_string(header.extents[2]),
                  file_bytes);
  return header;
}

inline OpenQcdHeader read_openqcd_header(const std::string& path) {
  std::ifstream in = open_gauge_file({"openQCD", path});
  const std::int64_t bytes = file_size(in);
  return parse_openqcd_header(first_bytes(in, bytes, OpenQcdHeader::header_bytes).data(), bytes, path);
}

namespace openqcd_detail {

inline OpenQcdHeader agreed_header(const Communicator& communicator, const std::string& path) {
  OpenQcdHeader header;
  read_on_rank_zero(communicator, [&] { header = read_openqcd_header(path); });
  share_from_rank_zero(communicator, header.extents, header.plaquette);
  return header;
}

// This rank's block of the (z/2, y, x, t) record array; the same error on
// every rank when some rank's block does not pair up along z.
inline RecordBlock record_block(const Geometry& geometry, const std::string& what) {
  const Decomposition& d = geometry.decomposition();
  const Coordinate& n = d.global_dims();
  const Coordinate& l = d.local_dims();
  const Coordinate& o = d.origin();
  const bool pairs = n[2] % 2 == 0 && l[2] % 2 == 0 && o[2] % 2 == 0;
  if (!d.communicator().all_true(pairs))
    refuse(what + ": openQCD files need even extents in z on every rank; the lattice " + to_string(n) +
           " is spread as " + to_string(d.process_grid()));
  return RecordBlock{{n[2] / 2, n[1], n[0], n[3]}, {l[2] / 2, l[1], l[0], l[3]}, {o[2] / 2, o[1], o[0], o[3]}};
}

// Local coordinates (Latte order) of the odd site of record r of slice t of
// this rank's block.
inline Coordinate odd_site(const RecordBlock& block, const Coordinate& origin, int t, std::int64_t r) {
  const int half_z = block.local[0], ly = block.local[1];
  const int zp = static_cast<int>(r % half_z), y = static_cast<int>(r / half_z % ly),
            x = static_cast<int>(r / half_z / ly);
  const int global_sum = x + origin[0] + y + origin[1] + t + origin[3] + 2 * zp + origin[2];
  return {x, y, 2 * zp + (global_sum % 2 == 0 ? 1 : 0), t};
}

// to = from, link by link on the host: the two fields may differ in
// precision and lane layout (a float field beside the double ones the
// plaquette is checked in).
template <class To, class WT, class From, class WF>
void copy_links(GaugeField<To, WT>& to, const GaugeField<From, WF>& from) {
  const Coordinate& local = to.geometry().decomposition().local_dims();
  const SiteLayout &to_layout = to[0].layout(), &from_layout = from[0].layout();
  const std::array out{to[0].host_view(Access::write), to[1].host_view(Access::write), to[2].host_view(Access::write),
                       to[3].host_view(Access::write)};
  const std::array in{from[0].host_view(Access::read), from[1].host_view(Access::read),
                      from[2].host_view(Access::read), from[3].host_view(Access::read)};
  parallel_for(product(local), [&](std::int64_t i) {
    const Coordinate x = coordinate_from_index(i, local);
    const auto [to_outer, to_lane] = to_layout.split_local(x);
    const auto [from_outer, from_lane] = from_layout.split_local(x);
    for (int mu = 0; mu < 4; ++mu)
      out[mu].store(LaneSite<To>{to_outer, to_lane},
                    transform_leaves<ColourMatrix<To>>([](From v) { return static_cast<To>(v); },
                                                       in[mu].load(LaneSite<From>{from_outer, from_lane})));
  });
}

}  // namespace openqcd_detail

// Reads the links of `path` into U, whose lattice must be the file's; every
// rank reads its own block, every error is thrown on every rank alike.
template <class R, class W>
OpenQcdHeader read_openqcd(GaugeField<R, W>& U, const std::string& path) {
  using namespace openqcd_detail;
  const std::string file = openqcd_detail::file(path);
  const Geometry& geometry = U.geometry();
  const Communicator& communicator = geometry.decomposition().communicator();
  const OpenQcdHeader header = agreed_header(communicator, path);
  check_lattice(file, header.extents, geometry, " (x, y, z, t)");
  const RecordBlock block = record_block(geometry, file);
  const Coordinate& origin = geometry.decomposition().origin();
  const std::int64_t per_slice = static_cast<std::int64_t>(block.local[0]) * block.local[1] * block.local[2];
  std::vector<unsigned char> raw(static_cast<std::size_t>(per_slice * OpenQcdHeader::record_bytes));

  // forward: the links leaving odd sites; backward(x) = U_mu(x - mu^) at odd
  // x. In double whatever U's precision: the plaquette is checked on the
  // file's values.
  GaugeField<double> forward(geometry), backward(geometry);
  with_file_access(file, [&] {
    SharedFile shared(communicator, path, SharedFile::Mode::read);
    shared.view_block(OpenQcdHeader::header_bytes, OpenQcdHeader::record_bytes, block.global, block.local,
                      block.origin);
    const SiteLayout& layout = forward[0].layout();
    const Coordinate& extents = geometry.dims();
    NonFiniteLinks non_finite;
    for (int t = 0; t < block.local[3]; ++t) {
      shared.read_block(raw.data(), per_slice);
      // Links holding a NaN or an infinity, by the Latte site and mu they
      // belong to (a backward link is U_mu(x - mu^)).
      for (std::int64_t r = 0; r < per_slice; ++r)
        for (int link = 0; link < 8; ++link) {
          double values[18];
          decode_reals(raw.data() + r * OpenQcdHeader::record_bytes + link * 144, 18, reals, values);
          if (std::all_of(values, values + 18, [](double v) { return std::isfinite(v); })) continue;
          Coordinate site = odd_site(block, origin, t, r);
          for (int nu = 0; nu < 4; ++nu) site[nu] += origin[nu];
          const int mu = latte_direction(link / 2);
          if (link % 2 == 1) site[mu] = (site[mu] - 1 + extents[mu]) % extents[mu];
          non_finite.note(index_from_coordinate(site, extents), mu, values, 18);
        }
      const Access access = t == 0 ? Access::write : Access::read_write;
      const std::array f{forward[0].host_view(access), forward[1].host_view(access), forward[2].host_view(access),
                         forward[3].host_view(access)};
      const std::array b{backward[0].host_view(access), backward[1].host_view(access),
                         backward[2].host_view(access), backward[3].host_view(access)};
      parallel_for(per_slice, [&](std::int64_t r) {
        const auto [outer, lane] = layout.split_local(odd_site(block, origin, t, r));
        for (int link = 0; link < 8; ++link) {
          double values[18];
          decode_reals(raw.data() + r * OpenQcdHeader::record_bytes + link * 144, 18, reals, values);
          ColourMatrix<double> u;
          for (int k = 0; k < 18; ++k) {
            if (k % 2 == 0)
              u(k / 6, k / 2 % 3).re = values[k];
            else
              u(k / 6, k / 2 % 3).im = values[k];
          }
          const int mu = latte_direction(link / 2);
          (link % 2 == 0 ? f : b)[mu].store(LaneSite<double>{outer, lane}, u);
        }
      });
    }
    non_finite.check(file, communicator, extents);
  });
  // Even site x: U_mu(x) = backward(x + mu^), stored at the odd site x + mu^.
  GaugeField<double> links(geometry);
  for (int mu = 0; mu < 4; ++mu) links[mu] = shift(backward[mu], mu, +1);
  {
    const SiteLayout& layout = links[0].layout();
    const Coordinate& local = geometry.decomposition().local_dims();
    const std::array to{links[0].host_view(Access::read_write), links[1].host_view(Access::read_write),
                        links[2].host_view(Access::read_write), links[3].host_view(Access::read_write)};
    const std::array from{forward[0].host_view(Access::read), forward[1].host_view(Access::read),
                          forward[2].host_view(Access::read), forward[3].host_view(Access::read)};
    parallel_for(product(local), [&](std::int64_t i) {
      const Coordinate x = coordinate_from_index(i, local);
      int sum = 0;
      for (int mu = 0; mu < 4; ++mu) sum += x[mu] + origin[mu];
      if (sum % 2 == 0) return;
      const auto [outer, lane] = layout.split_local(x);
      for (int mu = 0; mu < 4; ++mu)
        to[mu].store(LaneSite<double>{outer, lane}, from[mu].load(LaneSite<double>{outer, lane}));
    });
  }
  check_average(
      file, "plaquette", 3.0 * average_plaquette(links), header.plaquette,
      "its header says " + std::to_string(header.plaquette),
      [&](double ours, double stated) { return plaquette_agrees(ours, stated, header.volume()); },
      " (openQCD's normalisation, 3 on the free field)");
  if constexpr (std::is_same_v<GaugeField<R, W>, GaugeField<double>>) {
    for (int mu = 0; mu < 4; ++mu) U[mu] = links[mu];
  } else {
    copy_links(U, links);
  }
  return header;
}

// Writes U to `path` (through path.tmp and a rename); the same bytes for
// any number of ranks.
template <class R, class W>
void write_openqcd(const GaugeField<R, W>& U, const std::string& path) {
  using namespace openqcd_detail;
  const Geometry& geometry = U.geometry();
  if (geometry.checkerboarded() || geometry.dims().size() != 4)
    throw GeometryMismatch("Latte: an openQCD file holds a whole 4-dimensional lattice; this gauge field holds " +
                           U[0].layout().describe());
  for (int extent : geometry.dims())
    if (extent % 2 != 0)
      throw GeometryMismatch("Latte: openQCD files need even extents, not " + to_string(geometry.dims()));
  const Communicator& communicator = geometry.decomposition().communicator();
  const RecordBlock block = record_block(geometry, openqcd_detail::file(path));
  const Coordinate& origin = geometry.decomposition().origin();
  const std::int64_t per_slice = static_cast<std::int64_t>(block.local[0]) * block.local[1] * block.local[2];

  unsigned char header[OpenQcdHeader::header_bytes];
  const Coordinate& n = geometry.dims();
  for (int mu = 0; mu < 4; ++mu) store_word<std::int32_t>(header + 4 * mu, n[latte_direction(mu)], false);
  // The plaquette of the values the file holds, in double (a float field's
  // own plaquette differs by about 1e-7, beyond openQCD's tolerance).
  double plaquette = 0;
  if constexpr (std::is_same_v<GaugeField<R, W>, GaugeField<double>>) {
    plaquette = 3.0 * average_plaquette(U);
  } else {
    GaugeField<double> in_double(geometry);
    copy_links(in_double, U);
    plaquette = 3.0 * average_plaquette(in_double);
  }
  encode_reals(&plaquette, 1, reals, header + 16);

  GaugeField<R, W> backward(geometry);  // backward(x) = U_mu(x - mu^)
  for (int mu = 0; mu < 4; ++mu) backward[mu] = shift(U[mu], mu, -1);
  std::vector<unsigned char> raw(static_cast<std::size_t>(per_slice * OpenQcdHeader::record_bytes));
  write_through_temporary(communicator, {"openQCD", path}, [&](const std::string& tmp) {
    SharedFile shared(communicator, tmp, SharedFile::Mode::write);
    shared.view_block(OpenQcdHeader::header_bytes, OpenQcdHeader::record_bytes, block.global, block.local,
                      block.origin);
    const SiteLayout& layout = U[0].layout();
    const std::array f{U[0].host_view(Access::read), U[1].host_view(Access::read), U[2].host_view(Access::read),
                       U[3].host_view(Access::read)};
    const std::array b{backward[0].host_view(Access::read), backward[1].host_view(Access::read),
                       backward[2].host_view(Access::read), backward[3].host_view(Access::read)};
    for (int t = 0; t < block.local[3]; ++t) {
      parallel_for(per_slice, [&](std::int64_t r) {
        const auto [outer, lane] = layout.split_local(odd_site(block, origin, t, r));
        for (int link = 0; link < 8; ++link) {
          const int mu = latte_direction(link / 2);
          const ColourMatrix<R> u = (link % 2 == 0 ? f : b)[mu].load(LaneSite<R>{outer, lane});
          double values[18];
          for (int k = 0; k < 18; ++k) {
            const auto& entry = u(k / 6, k / 2 % 3);
            values[k] = static_cast<double>(k % 2 == 0 ? entry.re : entry.im);
          }
          encode_reals(values, 18, reals, raw.data() + r * OpenQcdHeader::record_bytes + link * 144);
        }
      });
      shared.write_block(raw.data(), per_slice);
    }
    shared.root_write_at(0, header, sizeof header);
    shared.close();
  });
}

}  // namespace latte
