// The spectroscopy tests as one translation unit (see suite_core.cpp): gauge
// fixing and the gauge transformations it returns.
#include "test_gauge_fixing.cpp"
