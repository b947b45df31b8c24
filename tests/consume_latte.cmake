# Build tests/consumer/ against Latte as a user project would, by one route:
#   ROUTE=install       cmake --install this build into a staging prefix, then
#                       find_package(latte) from there
#   ROUTE=subdirectory  add_subdirectory(<Latte's sources>) with this build's
#                       backend and options
# and run the program. The consumer sets no build type: unless its flags
# carry their own -O, the configure step must print Latte's message and the
# consumer's compile line must carry -O3 (cmake/LatteTargets.cmake).
# The consumer is compiled with this build's compiler and linker flags: the
# installed latte::runtime was compiled with them (an asan build's library
# needs a sanitized program).
set(consumer_build ${BINARY_DIR}/consumer-${ROUTE})
file(REMOVE_RECURSE ${consumer_build})
set(route_options)
if(ROUTE STREQUAL "install")
  set(prefix ${BINARY_DIR}/staged-install)
  file(REMOVE_RECURSE ${prefix})
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix} RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed")
  endif()
  set(route_options -DCMAKE_PREFIX_PATH=${prefix})
elseif(ROUTE STREQUAL "subdirectory")
  # Without the precompiled solvers: linking them would compile Latte's five
  # instance files inside this test (some four minutes of GCC); the install
  # route checks them.
  set(route_options -DLATTE_SOURCE_DIR=${LATTE_SOURCE_DIR} -DLATTE_BACKEND=${BACKEND} -DLATTE_SIMD=${SIMD}
                    -DLATTE_MPI=${MPI} -DLATTE_EMULATE_DEVICE_MEMORY=${EMULATE_DEVICE_MEMORY}
                    -DUSE_PRECOMPILED_SOLVERS=OFF)
else()
  message(FATAL_ERROR "ROUTE must be install or subdirectory (got '${ROUTE}')")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${consumer_build} ${route_options}
                        "-DCMAKE_CXX_FLAGS=${CONSUMER_CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_LINKER_FLAGS}"
                OUTPUT_VARIABLE configure_output ERROR_VARIABLE configure_output RESULT_VARIABLE rc)
message("${configure_output}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring a project that uses Latte (${ROUTE}) failed")
endif()
string(TIMESTAMP build_start "%s")
execute_process(COMMAND ${CMAKE_COMMAND} --build ${consumer_build} --target consumer --verbose
                OUTPUT_VARIABLE build_output ERROR_VARIABLE build_output RESULT_VARIABLE rc)
string(TIMESTAMP build_end "%s")
if(NOT rc EQUAL 0)
  message("${build_output}")
  message(FATAL_ERROR "building a project that uses Latte (${ROUTE}) failed")
endif()
math(EXPR build_seconds "${build_end} - ${build_start}")
message("consumer built (${ROUTE}) in ${build_seconds} s")
# An installed Latte brings its precompiled solvers (not on cuda): the
# consumer is compiled against them and links them.
if(ROUTE STREQUAL "install" AND NOT BACKEND STREQUAL "cuda")
  string(REGEX MATCH "[^\n]*-DLATTE_PRECOMPILED_QCD[^\n]*consumer\\.cpp[^\n]*" precompiled_line "${build_output}")
  if(NOT precompiled_line OR NOT build_output MATCHES "liblatte_qcd_instances\\.a" OR
     NOT build_output MATCHES "liblatte_lbm_instances\\.a")
    message("${build_output}")
    message(FATAL_ERROR "the consumer of an installed Latte did not use the installed precompiled solvers")
  endif()
  message("the consumer uses the installed precompiled solvers (latte::qcd_instances, latte::lbm_instances)")
endif()
if(NOT CONSUMER_CXX_FLAGS MATCHES "(^| )-O")
  if(NOT configure_output MATCHES "Latte: this project sets no CMAKE_BUILD_TYPE: code that links latte::latte is compiled with -O3")
    message(FATAL_ERROR "configuring a project with no build type did not print Latte's message that it optimises")
  endif()
  string(REGEX MATCH "[^\n]*-O3[^\n]*consumer\\.cpp[^\n]*" compile_line "${build_output}")
  if(NOT compile_line)
    message("${build_output}")
    message(FATAL_ERROR "the consumer (no build type) was not compiled with -O3")
  endif()
  message("compile line: ${compile_line}")
endif()
execute_process(COMMAND ${consumer_build}/consumer WORKING_DIRECTORY ${consumer_build} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer program computed a wrong result")
endif()
