#pragma once
/// @file
/// A one-line progress display for terminals: frame counter, bar, elapsed
/// time and an estimate of the time left, redrawn in place (plain lines when
/// the output is not a terminal).

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

#include <unistd.h>

namespace ipc::examples {

/// Progress over a known number of units (frames).
class Progress {
public:
    /// total units; label printed before the bar.
    explicit Progress(int total, std::string label = "")
        : total_(total > 0 ? total : 1)
        , label_(std::move(label))
        , start_(std::chrono::steady_clock::now())
        , terminal_(isatty(fileno(stderr)) != 0)
    {
    }

    /// Reports that done units are finished, with a short status text.
    void update(int done, const std::string& status = "")
    {
        const double elapsed = seconds();
        const double left = done > 0 ? elapsed * (total_ - done) / done : 0;
        const int width = 30;
        const int filled = width * done / total_;
        std::string bar(std::size_t(filled), '#');
        bar.resize(std::size_t(width), '.');
        std::fprintf(stderr, "%s%s [%s] %d/%d  %.1fs elapsed, ~%.1fs left  %s%s", terminal_ ? "\r" : "",
            label_.c_str(), bar.c_str(), done, total_, elapsed, left, status.c_str(), terminal_ ? "\033[K" : "\n");
        std::fflush(stderr);
    }

    /// Ends the line.
    void finish()
    {
        if (terminal_) {
            std::fprintf(stderr, "\n");
        }
    }

    /// Seconds since construction.
    double seconds() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    int total_;
    std::string label_;
    std::chrono::steady_clock::time_point start_;
    bool terminal_;
};

} // namespace ipc::examples
