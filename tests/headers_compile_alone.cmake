# Compile each public header as its own translation unit (FLAGS end with
# what makes the compiler read a header as a source: -fsyntax-only -x c++,
# or for nvcc -c -o /dev/null -x cu).
set(failed "")
foreach(header IN LISTS HEADERS)
  execute_process(COMMAND ${COMPILER} ${FLAGS} -I${SOURCE_DIR} ${SOURCE_DIR}/${header}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message("${header} does not compile on its own:\n${err}")
    list(APPEND failed ${header})
  endif()
endforeach()
list(LENGTH HEADERS count)
if(failed)
  message(FATAL_ERROR "headers that do not compile alone: ${failed}")
endif()
message("${count} headers compile on their own")
