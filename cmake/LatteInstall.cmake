# Install the headers and a CMake package so that another project can write
#   find_package(latte REQUIRED)  and  target_link_libraries(app latte::latte)
# (and latte_target(app), which on the cuda backend compiles app's sources with nvcc)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Every public header, the solvers included (solvers/lbm/io/png_output.hpp
# needs libpng as well: link PNG::PNG where it is used).
install(DIRECTORY platform dsl lattice backends solvers
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/latte
        FILES_MATCHING PATTERN "*.hpp")
install(TARGETS latte EXPORT latteTargets)
if(TARGET latte_runtime)  # latte::runtime: the run-time code compiled once (not on cuda)
  install(TARGETS latte_runtime EXPORT latteTargets)
endif()
if(rational_in_all)  # latte::rational: rational approximations
  install(TARGETS latte_rational EXPORT latteTargets)
endif()
# The precompiled solvers (CMakeLists.txt), where this build makes them.
if(TARGET latte_qcd_instances AND instances_in_all)
  install(TARGETS latte_qcd_instances latte_lbm_instances EXPORT latteTargets)
endif()
install(EXPORT latteTargets NAMESPACE latte:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/latte)
configure_package_config_file(cmake/latteConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/latteConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/latte)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/latteConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/latteConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/latteConfigVersion.cmake
              ${CMAKE_CURRENT_SOURCE_DIR}/cmake/LatteTargets.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/latte)
