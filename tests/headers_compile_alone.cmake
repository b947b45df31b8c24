# Compile each public header as its own translation unit (FLAGS end with
# what makes the compiler read a source: -fsyntax-only -x c++, or for nvcc
# -c -o /dev/null -x cu). A header with a usage snippet,
# header_uses/<header>.cpp, is compiled through it instead: the snippet
# includes only that header and uses what it offers (a field and a
# statement, a solve, a file read), so the templates the header's users
# instantiate are instantiated too -- a header that parses but cannot be
# used alone (a function its templates call is declared elsewhere) fails.
# -fsyntax-only still instantiates every template a snippet uses.
#
# PRECOMPILED (the cpu backend: xsimd/xsimd.hpp) is a system header that
# half of the headers reach and that takes two of the three seconds such a
# header needs: it is compiled once, in WORK_DIR, and put before each
# header (-include). What is checked stays what matters here: that each
# Latte header includes the Latte and standard headers it uses (xsimd
# itself is included by two headers of backends/cpu/ only).
set(failed "")
set(used 0)
set(precompiled_flags "")
if(PRECOMPILED)
  file(MAKE_DIRECTORY ${WORK_DIR})
  file(WRITE ${WORK_DIR}/precompiled.hpp "#include <${PRECOMPILED}>\n")
  set(header_flags ${FLAGS})
  list(FILTER header_flags EXCLUDE REGEX "^(-fsyntax-only|-x|c\\+\\+)$")
  execute_process(COMMAND ${COMPILER} ${header_flags} -I${SOURCE_DIR} -x c++-header ${WORK_DIR}/precompiled.hpp
                          -o ${WORK_DIR}/precompiled.hpp.gch
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0)
    set(precompiled_flags -include ${WORK_DIR}/precompiled.hpp -Winvalid-pch)
  else()
    message("${PRECOMPILED} could not be precompiled, every header reads it itself:\n${err}")
  endif()
endif()
foreach(header IN LISTS HEADERS)
  set(source ${SOURCE_DIR}/${header})
  set(snippet ${SOURCE_DIR}/tests/header_uses/${header}.cpp)
  if(EXISTS ${snippet})
    set(source ${snippet})
    math(EXPR used "${used} + 1")
  endif()
  execute_process(COMMAND ${COMPILER} ${precompiled_flags} ${FLAGS} -I${SOURCE_DIR} ${source}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message("${header} does not compile on its own (${source}):\n${err}")
    list(APPEND failed ${header})
  endif()
endforeach()
list(LENGTH HEADERS count)
if(failed)
  message(FATAL_ERROR "headers that do not compile alone: ${failed}")
endif()
message("${count} headers compile on their own, ${used} of them used by a snippet")
