# Compile one snippet of tests/compile_fail/ and check that the compiler
# refuses it the way the snippet says, in one error:
#   // expect-error: REGEX   the static_assert's message (one line)
#   // expect-kinds: REGEX   the line of the diagnostic that names the
#                            operation and the kinds of its operands
# COMPILER and FLAGS are those of the headers_compile_alone tests (FLAGS end
# with what makes the compiler read a source), SOURCE_DIR the repository.
# The matched lines are printed, so that ctest -V shows what a user sees.
set(max_error_lines 1)

file(STRINGS ${SNIPPET} error_expectation REGEX "^// expect-error: ")
file(STRINGS ${SNIPPET} kinds_expectation REGEX "^// expect-kinds: ")
list(LENGTH error_expectation error_count)
list(LENGTH kinds_expectation kinds_count)
if(NOT error_count EQUAL 1 OR NOT kinds_count EQUAL 1)
  message(FATAL_ERROR "${SNIPPET} needs one '// expect-error: ' line and one '// expect-kinds: ' line")
endif()
string(REGEX REPLACE "^// expect-error: " "" error_pattern "${error_expectation}")
string(REGEX REPLACE "^// expect-kinds: " "" kinds_pattern "${kinds_expectation}")

execute_process(COMMAND ${COMPILER} ${FLAGS} -I${SOURCE_DIR} ${SNIPPET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# Diagnostics name types with ';' in them ([with A = ...; B = ...]), which
# CMake would read as list separators.
string(REPLACE ";" "," output "${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "${SNIPPET} compiled, but it should have been refused")
endif()

string(REGEX MATCHALL "[^\n]*error:[^\n]*" error_lines "${output}")
list(LENGTH error_lines error_line_count)
# GCC: "error: static assertion failed: MESSAGE"; Clang: "error: static_assert
# failed due to requirement '...' "MESSAGE"" (the kinds in that same line).
string(REGEX MATCH "[^\n]*error: static.assert[^\n]*${error_pattern}[^\n]*" error_line "${output}")
string(REGEX MATCH "[^\n]*${kinds_pattern}[^\n]*" kinds_line "${output}")
if(NOT error_line)
  message(FATAL_ERROR "${SNIPPET}: no error line matches '${error_pattern}'; the compiler said:\n${output}")
endif()
if(NOT kinds_line)
  message(FATAL_ERROR "${SNIPPET}: no line names the kinds as '${kinds_pattern}'; the compiler said:\n${output}")
endif()
if(error_line_count GREATER max_error_lines)
  message(FATAL_ERROR "${SNIPPET}: ${error_line_count} error lines, at most ${max_error_lines} expected; "
                      "the compiler said:\n${output}")
endif()
message("refused in ${error_line_count} error line (at most ${max_error_lines}):\n${error_line}\n${kinds_line}")
