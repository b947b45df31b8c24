# Compile each public header as its own translation unit (FLAGS end with
# what makes the compiler read a source: -fsyntax-only -x c++, or for nvcc
# -c -o /dev/null -x cu). A header with a usage snippet,
# header_uses/<header>.cpp, is compiled through it instead: the snippet
# includes only that header and uses what it offers (a field and a
# statement, a solve, a file read), so the templates the header's users
# instantiate are instantiated too -- a header that parses but cannot be
# used alone (a function its templates call is declared elsewhere) fails.
# -fsyntax-only still instantiates every template a snippet uses.
set(failed "")
set(used 0)
foreach(header IN LISTS HEADERS)
  set(source ${SOURCE_DIR}/${header})
  set(snippet ${SOURCE_DIR}/tests/header_uses/${header}.cpp)
  if(EXISTS ${snippet})
    set(source ${snippet})
    math(EXPR used "${used} + 1")
  endif()
  execute_process(COMMAND ${COMPILER} ${FLAGS} -I${SOURCE_DIR} ${source}
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
