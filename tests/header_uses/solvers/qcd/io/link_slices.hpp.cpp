// solvers/qcd/io/link_slices.hpp alone: a field's links written as
// site-ordered records and read back, slice by slice.
#include "solvers/qcd/io/link_slices.hpp"

void use_link_slices() {
  latte::GaugeField<double> U(latte::Geometry({4, 4, 4, 8}));
  U.set_unit();
  const latte::Communicator& communicator = U.geometry().decomposition().communicator();
  const latte::BlockSlices block(U[0].layout());
  const latte::LinkRecords records{{4, true}, 2};
  latte::write_through_temporary(communicator, {"example", "links.bin"}, [&](const std::string& tmp) {
    latte::SharedFile file(communicator, tmp, latte::SharedFile::Mode::write);
    latte::write_link_slices(file, U, block, 0, records, [](int, const unsigned char*) {});
    file.close();
  });
  latte::with_file_access("links.bin", [&] {
    latte::SharedFile file(communicator, "links.bin", latte::SharedFile::Mode::read);
    latte::LinkSliceReader links(file, block, 0, records, communicator, "links.bin");
    links.pass([&](int t, const unsigned char*, const std::vector<double>& values) {
      latte::scatter_slice(U, block, t, records.rows, values);
    });
  });
}
