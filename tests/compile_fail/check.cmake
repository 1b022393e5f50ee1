# Compiles one file that must not compile and checks the compiler's message: the file's
# "// expect: REGEX" line must match the output. Run by ctest (see tests/CMakeLists.txt) with
# -DCOMPILER= -DSOURCE= -DINCLUDE= .
file(STRINGS "${SOURCE}" expect_line REGEX "^// expect: ")
string(REGEX REPLACE "^// expect: " "" expect "${expect_line}")
if(expect STREQUAL "")
  message(FATAL_ERROR "${SOURCE}: no '// expect: REGEX' line")
endif()
execute_process(
  COMMAND "${COMPILER}" -std=c++20 -fsyntax-only "-I${INCLUDE}" "${SOURCE}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
if(result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not")
endif()
if(NOT output MATCHES "${expect}")
  message(FATAL_ERROR "${SOURCE} failed to compile, but not with '${expect}':\n${output}")
endif()
message(STATUS "${SOURCE}: rejected as expected")
