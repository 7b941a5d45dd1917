# One translation unit per public header, compiled under C++17 and C++20 with
# -Wall -Wextra -Wpedantic -Werror: each header must stand on its own.
# With IPC_HEADER_CHECK_EACH=OFF only the umbrella header is compiled (every
# header once, checking this compiler's warnings; scripts/test.sh checks each
# header alone with clang++ and the warnings of g++ through the umbrella).
option(IPC_HEADER_CHECK_EACH "Header check: every header alone (OFF: the umbrella header only)" ON)
if(IPC_HEADER_CHECK_EACH)
  file(GLOB_RECURSE _ipc_headers CONFIGURE_DEPENDS
       RELATIVE "${PROJECT_SOURCE_DIR}/include" "${PROJECT_SOURCE_DIR}/include/ipc/*.hpp")
else()
  set(_ipc_headers ipc/ipc.hpp)
endif()
foreach(_std 17 20)
  set(_sources)
  foreach(_header IN LISTS _ipc_headers)
    string(MAKE_C_IDENTIFIER "${_header}" _id)
    set(_file "${CMAKE_CURRENT_BINARY_DIR}/header_check/cxx${_std}/${_id}.cpp")
    ipc_write_if_changed("${_file}" "#include <${_header}>\n#include <${_header}> // include guards\n")
    list(APPEND _sources "${_file}")
  endforeach()
  add_library(ipc_header_check_cxx${_std} OBJECT ${_sources})
  target_link_libraries(ipc_header_check_cxx${_std} PRIVATE ipc::ipc ipc_warnings)
  target_compile_options(ipc_header_check_cxx${_std} PRIVATE -Werror -fsyntax-only)
  set_target_properties(ipc_header_check_cxx${_std} PROPERTIES
    CXX_STANDARD ${_std} CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
endforeach()
add_custom_target(ipc_header_check)
add_dependencies(ipc_header_check ipc_header_check_cxx17 ipc_header_check_cxx20)
