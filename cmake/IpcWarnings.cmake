# Warnings for everything this project compiles itself (never forced on users).
add_library(ipc_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(ipc_warnings INTERFACE -Wall -Wextra -Wpedantic)
endif()

# Sanitizers for the test configuration that runs under ASan and UBSan.
add_library(ipc_sanitizers INTERFACE)
if(IPC_SANITIZE)
  target_compile_options(ipc_sanitizers INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(ipc_sanitizers INTERFACE -fsanitize=address,undefined)
  target_compile_definitions(ipc_sanitizers INTERFACE IPC_SANITIZED_BUILD)
endif()
