#pragma once
/// @file
/// Umbrella header: includes every public header of the library.

#include <ipc/config.hpp>

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>

#include <ipc/ccd/ccd_method.hpp>
#include <ipc/ccd/ccd_result.hpp>
