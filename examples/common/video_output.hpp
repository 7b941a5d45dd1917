#pragma once
/// @file
/// `--video FILE`: a run as a video. Every frame is drawn by the preview
/// rasterizer (the picture of last_frame.png, caption and legend included)
/// and piped as raw RGB bytes to the `ffmpeg` program (Debian's `ffmpeg`
/// package), which encodes it as H.264 in yuv420p, the form every player
/// reads. ffmpeg picks the container from the file's extension (.mp4, .mkv,
/// .mov).
///
/// The frame rate follows the time step: one frame per step, played in real
/// time (1/h frames per second) when that rate lies between 10 and 60 frames
/// per second, and at 30 frames per second otherwise (slow motion for steps
/// shorter than 1/60 s, fast motion for steps longer than 1/10 s).
///
/// A program checks for ffmpeg with find_ffmpeg before its run starts and
/// stops with missing_ffmpeg_message when it is not there.

#include <common/cli.hpp>
#include <common/rasterizer.hpp>

#include <ipc/core/error.hpp>

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <utility>
#include <vector>

namespace ipc::examples {

/// The path of the executable called program in a folder of PATH, or
/// std::nullopt when there is none (an empty PATH entry means the current
/// folder, as for the shell).
inline std::optional<std::string> find_on_path(const std::string& program)
{
    const char* path = std::getenv("PATH");
    if (path == nullptr) {
        return std::nullopt;
    }
    const std::string list(path);
    std::size_t begin = 0;
    while (begin <= list.size()) {
        std::size_t end = list.find(':', begin);
        if (end == std::string::npos) {
            end = list.size();
        }
        const std::string folder = end > begin ? list.substr(begin, end - begin) : std::string(".");
        const std::string candidate = folder + "/" + program;
        struct stat info {};
        if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
        begin = end + 1;
    }
    return std::nullopt;
}

/// The ffmpeg program on PATH, or std::nullopt.
inline std::optional<std::string> find_ffmpeg() { return find_on_path("ffmpeg"); }

/// What a program says when --video is given and ffmpeg is not on PATH.
inline std::string missing_ffmpeg_message()
{
    return "--video needs the ffmpeg program, which is not on PATH; install it with: apt-get install ffmpeg (as "
           "root), or leave out --video";
}

/// Checks --video FILE before a run: ffmpeg on PATH and FILE writable
/// (check_output_file). Returns an error message, or std::nullopt when the
/// video can be written (or no video is asked for: path empty).
inline std::optional<std::string> check_video_output(const std::string& path)
{
    if (path.empty()) {
        return std::nullopt;
    }
    if (!find_ffmpeg()) {
        return missing_ffmpeg_message();
    }
    return check_output_file(path);
}

/// The playback rate of a video of time step dt (s): real time between 10
/// and 60 frames per second, 30 frames per second otherwise.
struct VideoRate {
    long long numerator = 30; ///< frames per second, as numerator / denominator
    long long denominator = 1;
    double fps = 30;            ///< the same as a number
    double speed = 1;           ///< video seconds per simulated second: 1 for real time
};

inline VideoRate video_rate(double dt)
{
    require(std::isfinite(dt) && dt > 0, "video_rate: the time step must be positive, got ", dt);
    VideoRate rate;
    const double real_time = 1 / dt;
    if (real_time >= 10 && real_time <= 60) {
        // 1 / dt as microseconds per frame, so 0.04 s gives exactly 25 fps.
        rate.numerator = 1000000;
        rate.denominator = std::llround(dt * 1e6);
        rate.fps = double(rate.numerator) / double(rate.denominator);
        rate.speed = 1;
    } else {
        rate.fps = 30;
        rate.speed = real_time / 30; // > 1: slower than real time
    }
    return rate;
}

/// One line describing the rate, e.g. "25 frames/s, real time" or
/// "30 frames/s, 0.33 x real time".
inline std::string describe(const VideoRate& rate)
{
    char text[96];
    if (rate.speed == 1) {
        std::snprintf(text, sizeof text, "%.4g frames/s, real time", rate.fps);
    } else {
        std::snprintf(text, sizeof text, "%.4g frames/s, %.3g x real time", rate.fps, 1 / rate.speed);
    }
    return text;
}

/// Writes RGB frames (8 bits per channel, rows from the top) to a video file
/// through ffmpeg. ffmpeg starts at the first frame, whose size every later
/// frame must have; an odd width or height is padded by one black pixel
/// (yuv420p needs even sizes). finish() waits for ffmpeg and throws
/// ipc::error when it failed; the destructor only waits.
class VideoWriter {
public:
    /// A video at path for frames dt seconds apart, encoded by the ffmpeg
    /// executable at ffmpeg (default: the one on PATH).
    VideoWriter(std::string path, double dt, std::string ffmpeg = find_ffmpeg().value_or("ffmpeg"))
        : path_(std::move(path))
        , ffmpeg_(std::move(ffmpeg))
        , rate_(video_rate(dt))
    {
    }

    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    ~VideoWriter()
    {
        if (pipe_ != nullptr) {
            ::pclose(pipe_);
        }
    }

    /// Appends one frame of width x height pixels (rgb: width * height * 3
    /// bytes). Throws ipc::invalid_argument for a frame of another size and
    /// ipc::error when ffmpeg cannot be started or stopped reading.
    void add_frame(const std::vector<unsigned char>& rgb, int width, int height)
    {
        require(width > 0 && height > 0 && rgb.size() == std::size_t(width) * std::size_t(height) * 3,
            "VideoWriter: a frame of ", width, " x ", height, " needs ", std::size_t(width) * std::size_t(height) * 3,
            " bytes, got ", rgb.size());
        if (pipe_ == nullptr) {
            require<error>(frames_ == 0, "VideoWriter: ", path_, " is already finished");
            start(width, height);
        }
        require(width == width_ && height == height_, "VideoWriter: frame of ", width, " x ", height,
            " in a video of ", width_, " x ", height_);
        if (std::fwrite(rgb.data(), 1, rgb.size(), pipe_) != rgb.size()) {
            const int code = ::pclose(pipe_);
            pipe_ = nullptr;
            throw error("ffmpeg stopped reading the frames of " + path_ + " (" + exit_text(code) + ")");
        }
        ++frames_;
    }

    /// Appends the picture r holds.
    void add_frame(const Rasterizer& r) { add_frame(r.image(), r.width(), r.height()); }

    /// Closes the stream and waits for ffmpeg to write the file. Throws
    /// ipc::error when ffmpeg reports a failure.
    void finish()
    {
        if (pipe_ == nullptr) {
            return;
        }
        const int code = ::pclose(pipe_);
        pipe_ = nullptr;
        require<error>(code == 0, "ffmpeg could not write the video ", path_, " (", exit_text(code), ")");
    }

    const std::string& path() const { return path_; }
    int frames() const { return frames_; }
    const VideoRate& rate() const { return rate_; }

private:
    void start(int width, int height)
    {
        width_ = width;
        height_ = height;
        // A reader that exits early must not kill the program with SIGPIPE:
        // fwrite then fails and add_frame says so.
        std::signal(SIGPIPE, SIG_IGN);
        const std::string command = quoted(ffmpeg_) + " -hide_banner -loglevel error -nostdin -y"
            + " -f rawvideo -pix_fmt rgb24 -video_size " + std::to_string(width) + "x" + std::to_string(height)
            + " -framerate " + std::to_string(rate_.numerator) + "/" + std::to_string(rate_.denominator) + " -i -"
            + " -vf " + quoted("pad=ceil(iw/2)*2:ceil(ih/2)*2") + " -c:v libx264 -pix_fmt yuv420p -movflags +faststart -an "
            + quoted(path_);
        std::fflush(nullptr);
        pipe_ = ::popen(command.c_str(), "w");
        require<error>(pipe_ != nullptr, "cannot start ffmpeg for ", path_, ": ", std::strerror(errno));
    }

    /// text in single quotes for the shell.
    static std::string quoted(const std::string& text)
    {
        std::string q = "'";
        for (const char c : text) {
            q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        }
        return q + "'";
    }

    static std::string exit_text(int status)
    {
        if (status == -1) {
            return std::strerror(errno);
        }
        if (WIFEXITED(status)) {
            return "exit code " + std::to_string(WEXITSTATUS(status));
        }
        if (WIFSIGNALED(status)) {
            return "signal " + std::to_string(WTERMSIG(status));
        }
        return "status " + std::to_string(status);
    }

    std::string path_;
    std::string ffmpeg_;
    VideoRate rate_;
    std::FILE* pipe_ = nullptr;
    int width_ = 0, height_ = 0, frames_ = 0;
};

} // namespace ipc::examples
