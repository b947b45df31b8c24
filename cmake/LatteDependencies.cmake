# Dependencies, all from Debian packages (see README: libxsimd-dev,
# librandom123-dev, libeigen3-dev, googletest, libopenmpi-dev, OpenMP from GCC).
find_package(OpenMP REQUIRED COMPONENTS CXX)
if(LATTE_MPI)
  find_package(MPI REQUIRED COMPONENTS CXX)  # Debian: libopenmpi-dev
endif()

# Random123 is header-only and lives in the default include path.
find_path(LATTE_RANDOM123_INCLUDE_DIR Random123/philox.h)
if(NOT LATTE_RANDOM123_INCLUDE_DIR)
  message(FATAL_ERROR "Random123 headers not found: install the Debian package librandom123-dev")
endif()

if(LATTE_BACKEND STREQUAL "cpu")
  find_package(xsimd REQUIRED)
  # Debian's xsimd target links a library 'xtl' that is not packaged.
  if(NOT TARGET xtl)
    add_library(xtl INTERFACE IMPORTED)
  endif()
endif()
