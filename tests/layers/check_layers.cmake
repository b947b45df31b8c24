# The layering test: every #include "..." under platform/, lattice/,
# backends/, dsl/ and solvers/ names a file of the includer's folder or of a
# folder listed before it in tests/layers/layers.txt. Because the list is
# one order, the folders' include graph has no cycle. Fails naming each
# include that goes against the order (the file, the line, both folders),
# each folder with source files that the list does not name, and each
# folder with more headers than the list allows. Prints the folder include
# graph: how many includes go from each folder to each other one.
#   cmake -DSOURCE_DIR=<repository> -P tests/layers/check_layers.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_layers.cmake: pass -DSOURCE_DIR=<the repository>")
endif()
set(most_headers 16)

# layers.txt: "<folder>/ <what it holds>" per line, lowest first, or
# "except <file> <included file> <reason>".
file(STRINGS ${SOURCE_DIR}/tests/layers/layers.txt manifest ENCODING UTF-8)
set(folders "")
set(exceptions "")
set(problems 0)
foreach(line IN LISTS manifest)
  string(REGEX REPLACE "^[ \t]*#.*" "" line "${line}")
  string(STRIP "${line}" line)
  if(line STREQUAL "")
    continue()
  endif()
  if(line MATCHES "^except[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]*(.*)$")
    if(CMAKE_MATCH_3 STREQUAL "")
      message(SEND_ERROR "tests/layers/layers.txt: the exception '${line}' gives no reason")
      math(EXPR problems "${problems} + 1")
    endif()
    list(APPEND exceptions "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}")
    continue()
  endif()
  if(NOT line MATCHES "^([^ \t]+)/([ \t].*)?$")
    message(FATAL_ERROR "tests/layers/layers.txt: '${line}' is neither '<folder>/ <description>' nor an exception")
  endif()
  list(APPEND folders "${CMAKE_MATCH_1}")
endforeach()

file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/platform/*.hpp ${SOURCE_DIR}/platform/*.cpp
     ${SOURCE_DIR}/lattice/*.hpp ${SOURCE_DIR}/lattice/*.cpp
     ${SOURCE_DIR}/backends/*.hpp ${SOURCE_DIR}/backends/*.cpp ${SOURCE_DIR}/backends/*.cu
     ${SOURCE_DIR}/dsl/*.hpp ${SOURCE_DIR}/dsl/*.cpp
     ${SOURCE_DIR}/solvers/*.hpp ${SOURCE_DIR}/solvers/*.cpp)
set(graph "")
set(checked 0)
set(unlisted "")
foreach(file IN LISTS files)
  get_filename_component(folder "${file}" DIRECTORY)
  list(FIND folders "${folder}" file_rank)
  if(file_rank LESS 0)
    if(NOT folder IN_LIST unlisted)
      list(APPEND unlisted "${folder}")
      message(SEND_ERROR "${folder}/ (${file}) is not listed in tests/layers/layers.txt")
      math(EXPR problems "${problems} + 1")
    endif()
    continue()
  endif()
  if(file MATCHES "[.]hpp$")
    string(REPLACE "/" "_" key "${folder}")
    math(EXPR headers_${key} "${headers_${key}} + 1")
  endif()
  file(STRINGS ${SOURCE_DIR}/${file} lines ENCODING UTF-8)
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\"")
      continue()
    endif()
    set(included "${CMAKE_MATCH_1}")
    get_filename_component(included_folder "${included}" DIRECTORY)
    list(FIND folders "${included_folder}" included_rank)
    if(included_rank LESS 0)
      continue()  # not a folder of the library (a system or third-party header)
    endif()
    math(EXPR checked "${checked} + 1")
    if(NOT included_folder STREQUAL folder)
      list(APPEND graph "${folder} -> ${included_folder}")
    endif()
    if(included_rank GREATER file_rank AND NOT "${file}|${included}" IN_LIST exceptions)
      message(SEND_ERROR "${file}:${number}: includes \"${included}\" of ${included_folder}/, "
                         "which tests/layers/layers.txt lists above ${folder}/")
      math(EXPR problems "${problems} + 1")
    endif()
  endforeach()
endforeach()

# The folder include graph, one line per pair: "count from -> to".
list(SORT graph)
set(report "")
set(previous "")
set(count 0)
foreach(edge IN LISTS graph ITEMS "")
  if(NOT edge STREQUAL previous AND count GREATER 0)
    string(APPEND report "  ${count} ${previous}\n")
    set(count 0)
  endif()
  set(previous "${edge}")
  math(EXPR count "${count} + 1")
endforeach()
message("Folder include graph (includes from -> to):\n${report}")

set(sizes "")
foreach(folder IN LISTS folders)
  string(REPLACE "/" "_" key "${folder}")
  if(NOT headers_${key})
    set(headers_${key} 0)
  endif()
  string(APPEND sizes " ${folder}=${headers_${key}}")
  if(headers_${key} GREATER most_headers)
    message(SEND_ERROR "${folder}/ holds ${headers_${key}} headers, more than ${most_headers}: "
                       "split it by concept (tests/layers/layers.txt)")
    math(EXPR problems "${problems} + 1")
  endif()
endforeach()
message("Headers per folder:${sizes}")

list(LENGTH files file_count)
list(LENGTH folders folder_count)
if(problems GREATER 0)
  message(FATAL_ERROR "Latte layers: ${problems} problem(s) with the folder order of tests/layers/layers.txt")
endif()
message(STATUS "Latte layers: ${checked} includes in ${file_count} files, every one in the order of "
               "${folder_count} folders (tests/layers/layers.txt): no cycle")
