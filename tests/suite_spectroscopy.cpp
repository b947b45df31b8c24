// The spectroscopy tests as one translation unit (see suite_core.cpp):
// gauge fixing and the transformations it returns, Dirac matrices, meson
// and baryon contractions, momentum projection, quark sources and sinks,
// wall sources in a fixed gauge, and the statistics of an ensemble share
// their instantiations.
#include "test_gauge_fixing.cpp"
#include "test_dirac_matrices.cpp"
#include "test_hadron_contractions.cpp"
#include "test_quark_sources.cpp"
#include "test_wall_source_gauge.cpp"
#include "test_statistics.cpp"
