#pragma once
/// @file
/// Version of the ipc library and the feature macros it reads.

/// Major version of the library: changes that break the API.
#define IPC_VERSION_MAJOR 0
/// Minor version: additions that keep the API.
#define IPC_VERSION_MINOR 1
/// Patch version: fixes only.
#define IPC_VERSION_PATCH 0
/// The version as the string "MAJOR.MINOR.PATCH".
#define IPC_VERSION_STRING "0.1.0"

/// IPC_HAS_OPENMP is 1 when mesh-level loops run in parallel with OpenMP.
#if defined(_OPENMP)
#define IPC_HAS_OPENMP 1
#else
#define IPC_HAS_OPENMP 0
#endif

/// IPC_ALWAYS_INLINE marks a small hot helper of the distance kernels that
/// must be inlined into its caller even in a large translation unit, where
/// g++'s growth limits otherwise keep it out of line (returning its result
/// through memory and stopping the caller's scheduling at the call).
#if defined(__GNUC__) || defined(__clang__)
#define IPC_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define IPC_ALWAYS_INLINE __forceinline
#else
#define IPC_ALWAYS_INLINE inline
#endif
