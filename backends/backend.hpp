#pragma once
// The one place where the build's backend is chosen. Everything above this
// header talks to latte::backend::Default; the others stay reachable by name
// (tests compare the vector and per-lane lowerings in one binary).

#include "backends/simt/simt_backend.hpp"

#if defined(LATTE_BACKEND_SIMT)
namespace latte::backend { using Default = Simt; }
#else
#include "backends/cpu/cpu_backend.hpp"
namespace latte::backend { using Default = Cpu; }
#endif
