# Warning flags shared by the library, its tests, examples and benchmarks.
function(strata_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow)
  if(NOT STRATA_USE_OPENMP)
    # `#pragma omp` lines stay in the code and are ignored without OpenMP.
    target_compile_options(${target} PRIVATE -Wno-unknown-pragmas)
  endif()
  if(STRATA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
