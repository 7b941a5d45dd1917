# Every dependency is a Debian package; a missing one stops configuration
# with the name of the package to install.
include(GNUInstallDirs)

macro(ipc_require package debian_package)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR
      "ipc: ${package} was not found. Install it with:\n"
      "    apt-get install ${debian_package}   (as root)\n"
      "or point ${package}_DIR at its CMake package folder.")
  endif()
endmacro()

ipc_require(Eigen3 libeigen3-dev 3.3 NO_MODULE)
ipc_require(tsl-robin-map robin-map-dev)

if(IPC_WITH_OPENMP)
  find_package(OpenMP QUIET COMPONENTS CXX)
  if(NOT OpenMP_CXX_FOUND)
    message(STATUS "ipc: OpenMP not found, mesh-level functions run serially")
  endif()
endif()

if(IPC_BUILD_TESTS)
  ipc_require(Catch2 catch2 2)
endif()
if(IPC_BUILD_BENCHMARKS OR IPC_BUILD_EXAMPLES)
  ipc_require(fmt libfmt-dev)
endif()
