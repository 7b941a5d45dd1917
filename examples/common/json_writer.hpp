#pragma once
/// @file
/// A minimal streaming JSON writer: objects, arrays, strings, numbers
/// (non-finite numbers become null), booleans and null, with commas and
/// escaping handled.

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace ipc::examples {

/// Builds one JSON document in memory; call str() at the end.
class JsonWriter {
public:
    JsonWriter& begin_object() { return open('{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array() { return open('['); }
    JsonWriter& end_array() { return close(']'); }

    /// Writes the key of the next member (inside an object).
    JsonWriter& key(const std::string& k)
    {
        separator();
        quote(k);
        out_ << ':';
        after_key_ = true;
        return *this;
    }
    JsonWriter& value(const std::string& s)
    {
        separator();
        quote(s);
        return *this;
    }
    JsonWriter& value(const char* s) { return value(std::string(s)); }
    JsonWriter& value(double x)
    {
        separator();
        if (std::isfinite(x)) {
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "%.17g", x);
            out_ << buffer;
        } else {
            out_ << "null";
        }
        return *this;
    }
    JsonWriter& value(long long x)
    {
        separator();
        out_ << x;
        return *this;
    }
    JsonWriter& value(int x) { return value(static_cast<long long>(x)); }
    JsonWriter& value(std::size_t x) { return value(static_cast<long long>(x)); }
    JsonWriter& value(bool b)
    {
        separator();
        out_ << (b ? "true" : "false");
        return *this;
    }
    /// A number, or null when empty.
    JsonWriter& value(const std::optional<double>& x) { return x ? value(*x) : null(); }
    JsonWriter& null()
    {
        separator();
        out_ << "null";
        return *this;
    }
    /// key(k).value(v) in one call.
    template <typename T> JsonWriter& member(const std::string& k, const T& v) { return key(k).value(v); }

    /// The document so far.
    std::string str() const { return out_.str(); }

private:
    JsonWriter& open(char c)
    {
        separator();
        out_ << c;
        first_.push_back(true);
        return *this;
    }
    JsonWriter& close(char c)
    {
        out_ << c;
        if (!first_.empty()) {
            first_.pop_back();
        }
        return *this;
    }
    void separator()
    {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_.empty()) {
            if (!first_.back()) {
                out_ << ',';
            }
            first_.back() = false;
        }
    }
    void quote(const std::string& s)
    {
        out_ << '"';
        for (const char ch : s) {
            const auto c = static_cast<unsigned char>(ch);
            switch (ch) {
            case '"': out_ << "\\\""; break;
            case '\\': out_ << "\\\\"; break;
            case '\n': out_ << "\\n"; break;
            case '\t': out_ << "\\t"; break;
            case '\r': out_ << "\\r"; break;
            default:
                if (c < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                    out_ << buffer;
                } else {
                    out_ << ch;
                }
            }
        }
        out_ << '"';
    }

    std::ostringstream out_;
    std::vector<bool> first_;
    bool after_key_ = false;
};

} // namespace ipc::examples
