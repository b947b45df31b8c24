// The spectroscopy tests as one translation unit (see suite_core.cpp):
// Dirac matrices, meson and baryon contractions, momentum projection,
// quark sources and sinks share their instantiations.
#include "test_dirac_matrices.cpp"
#include "test_hadron_contractions.cpp"
#include "test_quark_sources.cpp"
#include "test_statistics.cpp"
