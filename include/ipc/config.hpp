#pragma once
/// @file
/// Version of the ipc library and the feature macros it reads.

#define IPC_VERSION_MAJOR 0
#define IPC_VERSION_MINOR 1
#define IPC_VERSION_PATCH 0
#define IPC_VERSION_STRING "0.1.0"

/// IPC_HAS_OPENMP is 1 when mesh-level loops run in parallel with OpenMP.
#if defined(_OPENMP)
#define IPC_HAS_OPENMP 1
#else
#define IPC_HAS_OPENMP 0
#endif
