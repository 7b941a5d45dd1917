#pragma once
/// @file
/// A dependency-free PNG encoder for 8-bit RGB images: zlib "stored"
/// (uncompressed) deflate blocks with an Adler-32 checksum, chunks with
/// CRC-32. Files are larger than compressed PNGs but every reader accepts them.

#include <ipc/core/error.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace ipc::examples {

/// CRC-32 (ISO 3309, as used by PNG) of data, continuing from crc.
inline std::uint32_t crc32(const unsigned char* data, std::size_t size, std::uint32_t crc = 0)
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t {};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) {
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            }
            t[n] = c;
        }
        return t;
    }();
    crc = ~crc;
    for (std::size_t i = 0; i < size; ++i) {
        crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    }
    return ~crc;
}

/// Adler-32 checksum (zlib) of data.
inline std::uint32_t adler32(const unsigned char* data, std::size_t size)
{
    std::uint32_t a = 1, b = 0;
    for (std::size_t i = 0; i < size; ++i) {
        a = (a + data[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

/// Encodes an 8-bit RGB image (rgb holds width * height * 3 bytes, row by
/// row from the top) as the bytes of a PNG file.
inline std::vector<unsigned char> encode_png(const std::vector<unsigned char>& rgb, int width, int height)
{
    require(width > 0 && height > 0 && rgb.size() == std::size_t(width) * std::size_t(height) * 3,
        "encode_png: image of ", width, " x ", height, " needs ", std::size_t(width) * std::size_t(height) * 3,
        " bytes, got ", rgb.size());
    std::vector<unsigned char> png { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    auto put32 = [](std::vector<unsigned char>& v, std::uint32_t x) {
        v.push_back(static_cast<unsigned char>(x >> 24));
        v.push_back(static_cast<unsigned char>(x >> 16));
        v.push_back(static_cast<unsigned char>(x >> 8));
        v.push_back(static_cast<unsigned char>(x));
    };
    auto chunk = [&](const char* type, const std::vector<unsigned char>& data) {
        put32(png, std::uint32_t(data.size()));
        std::vector<unsigned char> body(type, type + 4);
        body.insert(body.end(), data.begin(), data.end());
        png.insert(png.end(), body.begin(), body.end());
        put32(png, crc32(body.data(), body.size()));
    };
    std::vector<unsigned char> header;
    put32(header, std::uint32_t(width));
    put32(header, std::uint32_t(height));
    header.insert(header.end(), { 8, 2, 0, 0, 0 }); // 8 bits, RGB, deflate, no filter method, no interlace
    chunk("IHDR", header);

    // Raw scanlines, each prefixed by filter type 0.
    std::vector<unsigned char> raw;
    raw.reserve(std::size_t(height) * (std::size_t(width) * 3 + 1));
    for (int y = 0; y < height; ++y) {
        raw.push_back(0);
        const auto* row = rgb.data() + std::size_t(y) * std::size_t(width) * 3;
        raw.insert(raw.end(), row, row + std::size_t(width) * 3);
    }
    std::vector<unsigned char> z { 0x78, 0x01 }; // zlib header: deflate, 32K window, no dictionary
    for (std::size_t pos = 0; pos < raw.size();) {
        const std::size_t n = std::min<std::size_t>(65535, raw.size() - pos);
        const bool last = pos + n >= raw.size();
        z.push_back(last ? 1 : 0); // stored block
        z.push_back(static_cast<unsigned char>(n & 0xFF));
        z.push_back(static_cast<unsigned char>(n >> 8));
        z.push_back(static_cast<unsigned char>(~n & 0xFF));
        z.push_back(static_cast<unsigned char>((~n >> 8) & 0xFF));
        z.insert(z.end(), raw.begin() + std::ptrdiff_t(pos), raw.begin() + std::ptrdiff_t(pos + n));
        pos += n;
        if (last) {
            break;
        }
    }
    put32(z, adler32(raw.data(), raw.size()));
    chunk("IDAT", z);
    chunk("IEND", {});
    return png;
}

/// Writes an RGB image as a PNG file. Throws ipc::error on I/O failure.
inline void write_png(const std::string& path, const std::vector<unsigned char>& rgb, int width, int height)
{
    const std::vector<unsigned char> bytes = encode_png(rgb, width, height);
    std::ofstream out(path, std::ios::binary);
    require<error>(bool(out), "cannot open ", path, " for writing");
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    require<error>(bool(out), "failed writing ", path);
}

} // namespace ipc::examples
