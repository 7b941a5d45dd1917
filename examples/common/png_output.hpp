#pragma once
/// @file
/// Writes RGB pictures as PNG files with stb_image_write. The encoder itself
/// comes from Debian's libstb (libstb-dev), which the examples link, so no
/// translation unit here defines STB_IMAGE_WRITE_IMPLEMENTATION.

#include <ipc/core/error.hpp>

#include <stb/stb_image_write.h>

#include <cstddef>
#include <string>
#include <vector>

namespace ipc::examples {

/// Writes an 8-bit RGB image (rgb holds width * height * 3 bytes, row by row
/// from the top) to path as a PNG file. Throws ipc::invalid_argument when
/// the sizes disagree and ipc::error when the file cannot be written.
inline void write_png(const std::string& path, const std::vector<unsigned char>& rgb, int width, int height)
{
    require(width > 0 && height > 0 && rgb.size() == std::size_t(width) * std::size_t(height) * 3, "write_png: image of ",
        width, " x ", height, " needs ", std::size_t(width) * std::size_t(height) * 3, " bytes, got ", rgb.size());
    const int ok = stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3);
    require<error>(ok != 0, "cannot write the PNG file ", path);
}

} // namespace ipc::examples
