// solvers/lbm/io/checkpoint_file.hpp alone: a format of one real per site
// (the site's place) written through the shared codec, its frame checked
// and its records read back.
#include "solvers/lbm/io/checkpoint_file.hpp"

namespace {
struct D2Q1 {
  static constexpr const char* name = "D2Q1";
  static constexpr int d = 2;
};
constexpr char magic[8] = {'L', 'A', 'T', 'T', 'E', 'T', 'S', 'T'};
constexpr latte::lbm::checkpoint_file::Format format{magic, "test checkpoint", "Latte test checkpoint of version 1", 1};
}  // namespace

double use_checkpoint_file() {
  using namespace latte;
  namespace file = lbm::checkpoint_file;
  const SiteLayout layout(Coordinate{8, 8}, Coordinate{1, 1});
  const auto header_of = [&](std::uint32_t version, file::NoFields, std::int64_t time) {
    auto header = file::preamble<D2Q1, double>(format, version, layout.global_dims());
    file::put_time_step(header, time);
    return header;
  };
  file::write_records<double>(layout, "sites.chk", format, header_of(1, {}, 7), 1,
                              [](std::int64_t outer, int lane, double* record) { record[0] = outer + 0.5 * lane; });
  const auto frame =
      file::read_frame<double>(layout.decomposition(), "sites.chk", format, header_of, [](std::uint32_t) { return 1; });
  double total = 0;
  file::read_records<double>(layout, "sites.chk", format, header_of(frame.version, {}, frame.time), 1,
                             frame.stored_checksum,
                             [&] { return [&](std::int64_t, int, const double* record) { total += record[0]; }; });
  return total;
}
