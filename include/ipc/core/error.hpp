#pragma once
/// @file
/// The exceptions the library throws. Every one derives from ipc::error, and
/// its message names the bad value and where it came from.

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ipc {

/// Base of every exception thrown by ipc.
class error : public std::runtime_error {
public:
    /// Constructs the exception; what() returns "ipc: " followed by message.
    explicit error(const std::string& message) : std::runtime_error("ipc: " + message) { }
};

/// An argument is out of its domain: NaN or infinite coordinates, an index out
/// of range, a negative threshold, mismatched sizes.
class invalid_argument : public error {
public:
    /// Constructs the exception from its message, as ipc::error does.
    using error::error;
};

/// A geometric primitive cannot be used as given: a zero-length edge, a
/// zero-area triangle, coincident points where a direction is needed.
class degenerate_geometry : public error {
public:
    /// Constructs the exception from its message, as ipc::error does.
    using error::error;
};

/// A pair is at or inside its offset (distance <= xi), or a configuration
/// intersects, where the caller's contract says it must not.
class penetration : public error {
public:
    /// Constructs the exception from its message, as ipc::error does.
    using error::error;
};

namespace detail {
    /// Concatenates its arguments with operator<< into one message string.
    template <typename... Args> std::string concat(Args&&... args)
    {
        std::ostringstream stream;
        stream.precision(17);
        (stream << ... << std::forward<Args>(args));
        return stream.str();
    }
} // namespace detail

/// Throws Exception with the given message parts when condition is false.
template <typename Exception = invalid_argument, typename... Args>
inline void require(bool condition, Args&&... message)
{
    if (!condition) {
        throw Exception(detail::concat(std::forward<Args>(message)...));
    }
}

} // namespace ipc
