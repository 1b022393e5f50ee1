# Warning flags shared by the library, its tests, examples and benchmarks.
function(strata_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports a false -Wstringop-overread inside Boost.Container's small_vector move
    # (strata::Index) once it is inlined into containers of Index; the code reads only the
    # elements it holds (ASan agrees).
    target_compile_options(${target} PRIVATE -Wno-stringop-overread)
  endif()
  if(NOT STRATA_USE_OPENMP)
    # `#pragma omp` lines stay in the code and are ignored without OpenMP.
    target_compile_options(${target} PRIVATE -Wno-unknown-pragmas)
  endif()
  if(STRATA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
