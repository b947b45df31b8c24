// solvers/qcd/io/gauge_file_checks.hpp alone: a field's link trace checked
// against a stated one, and a checksum against another.
#include "solvers/qcd/io/gauge_file_checks.hpp"

void use_gauge_file_checks() {
  latte::GaugeField<double> U(latte::Geometry({4, 4, 4, 8}));
  U.set_unit();
  latte::check_average("example file 'u'", "link trace", latte::average_link_trace(U), 1.0, "its header says 1",
                       latte::RelativeTolerance{1e-6});
  latte::check_checksum("example file 'u'", "the checksum of its links is", 1u, 1u, "its header", latte::hex32);
}
