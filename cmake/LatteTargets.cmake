# latte_target(<target>): what every program built on Latte needs besides
# linking latte::latte. On the cuda backend its C++ sources are compiled as
# CUDA (nvcc), so the same source files build for every backend; elsewhere it
# does nothing. Call it in the directory that created the target (source
# file properties are per directory). Installed with the package.
function(latte_target target)
  if(LATTE_BACKEND STREQUAL "cuda")
    get_target_property(sources ${target} SOURCES)
    set_source_files_properties(${sources} PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()
