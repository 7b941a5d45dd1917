// Reader for IPC (SIGGRAPH 2020) scene scripts; see ipc_script.hpp (what
// maps where) and docs/ipc-scene-scripts.md (the user's view).

#include "ipc_script.hpp"

#include "mesh_files.hpp"

#include <ipc/core/error.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ipc::examples {
namespace {

    namespace fs = std::filesystem;
    using Eigen::Vector3d;

    constexpr double ipc_pi = 3.14159265358979323846;
    constexpr double deg = ipc_pi / 180;
    constexpr double inf = std::numeric_limits<double>::infinity();

    using mesh_files_detail::split; // whitespace-separated tokens of a line

    bool is_comment(const std::string& token) { return !token.empty() && token[0] == '#'; }

    /// Parses a whole token as a double (false when it is not one).
    bool parse_double(const std::string& token, double& value)
    {
        const char* begin = token.c_str();
        char* end = nullptr;
        errno = 0;
        value = std::strtod(begin, &end);
        return !token.empty() && end == begin + token.size();
    }

    /// R = Rx(rx) Ry(ry) Rz(rz), angles in degrees.
    Eigen::Matrix3d rotation_xyz(const Vector3d& degrees)
    {
        return (Eigen::AngleAxisd(degrees.x() * deg, Vector3d::UnitX())
            * Eigen::AngleAxisd(degrees.y() * deg, Vector3d::UnitY())
            * Eigen::AngleAxisd(degrees.z() * deg, Vector3d::UnitZ()))
            .toRotationMatrix();
    }

    std::string vec_str(const Vector3d& v)
    {
        std::ostringstream s;
        s.precision(6);
        s << "(" << v.x() << ", " << v.y() << ", " << v.z() << ")";
        return s.str();
    }

    std::string num_str(double x)
    {
        std::ostringstream s;
        s.precision(6);
        s << x;
        return s.str();
    }

    enum class ShapeKind { volume, triangles, segments, points };

    /// A DBC keyword: box (fractions of the file-space AABB), v, w (rad/s),
    /// window.
    struct Dbc {
        Vector3d lo, hi, v, w;
        double t0 = 0, t1 = inf;
        bool window = false;
    };

    /// One shape line (or one shapeMatrix instance).
    struct ShapeSpec {
        std::string path;
        std::size_t line = 0;
        Vector3d t = Vector3d::Zero(), r = Vector3d::Zero(), s = Vector3d::Ones();
        std::optional<Vector3d> material; // rho, E, nu
        std::optional<std::pair<Vector3d, Vector3d>> init_vel; // v, w (rad/s)
        std::optional<Vector3d> linear_velocity;
        std::optional<Vector3d> angular_velocity; // rad/s
        std::vector<Dbc> dbc;
        bool keywords = false; // any null-script keyword given
    };

    struct HalfSpaceSpec {
        Vector3d o, n;
        double mu = 0;
        std::size_t line = 0;
    };

    struct MeshCoSpec {
        std::string path;
        Vector3d x, rot = Vector3d::Zero();
        double s = 1, mu = 0;
        std::size_t line = 0;
    };

    /// A loaded mesh file (cached by resolved path).
    struct LoadedMesh {
        ShapeKind kind = ShapeKind::volume;
        Eigen::MatrixXd V;
        Eigen::MatrixXi E; // tets, triangles, segments or empty
        Index faces = 0;   // boundary triangles of a tet mesh
    };

    /// One shape in the merged vertex array.
    struct Component {
        ShapeKind kind = ShapeKind::volume;
        Index first = 0, count = 0;
        std::shared_ptr<const LoadedMesh> mesh;
        const ShapeSpec* spec = nullptr;
    };

    class ScriptReader {
    public:
        explicit ScriptReader(const std::string& path)
            : path_(path)
        {
            std::ifstream in(path, std::ios::binary);
            require(in.is_open(), "cannot open IPC script ", path);
            std::string line;
            while (std::getline(in, line)) {
                if (!line.empty() && line.back() == '\r') {
                    line.pop_back();
                }
                lines_.push_back(line);
            }
        }

        IpcScriptImport run()
        {
            parse();
            return build();
        }

    private:
        // ------------------------------------------------------------ utilities

        std::string where(std::size_t line) const
        {
            return line ? path_ + ":" + std::to_string(line) : path_;
        }

        void warn(std::size_t line, const std::string& message) { out_.warnings.push_back(where(line) + ": " + message); }

        /// Arguments of one command line.
        struct Args {
            const ScriptReader& reader;
            const std::vector<std::string>& tokens;
            std::size_t line;
            std::string command;
            std::size_t next = 1;

            bool more() const { return next < tokens.size() && !is_comment(tokens[next]); }

            std::string word(const char* what)
            {
                require(more(), reader.where(line), ": ", command, ": missing argument: expected ", what);
                return tokens[next++];
            }

            double real(const char* what)
            {
                const std::string token = word(what);
                double value = 0;
                require(parse_double(token, value), reader.where(line), ": ", command, ": expected a number for ", what,
                    ", got '", token, "'");
                require(std::isfinite(value), reader.where(line), ": ", command, ": ", what, " must be finite, got '",
                    token, "'");
                return value;
            }

            long long integer(const char* what)
            {
                const std::string token = word(what);
                const char* begin = token.c_str();
                char* end = nullptr;
                errno = 0;
                const long long value = std::strtoll(begin, &end, 10);
                require(end == begin + token.size() && errno == 0, reader.where(line), ": ", command,
                    ": expected an integer for ", what, ", got '", token, "'");
                return value;
            }

            Vector3d vec3(const char* what)
            {
                const double x = real(what);
                const double y = real(what);
                const double z = real(what);
                return { x, y, z };
            }

            /// Warns about trailing tokens (the original ignores them).
            void finish(ScriptReader& r) const
            {
                if (more()) {
                    std::string rest;
                    for (std::size_t k = next; k < tokens.size() && !is_comment(tokens[k]); ++k) {
                        rest += (rest.empty() ? "" : " ") + tokens[k];
                    }
                    r.warn(line, command + ": extra arguments ignored: " + rest);
                }
            }
        };

        /// The next N numbers after the command line (tol, tuning): reads
        /// tokens from line i on; the rest of the last line is read again as
        /// a line, as the original's stream does.
        std::vector<double> read_numbers(std::size_t& i, long long count, std::size_t command_line, const char* command)
        {
            std::vector<double> values;
            while ((long long)values.size() < count) {
                require(i < lines_.size(), where(command_line), ": ", command, " ", count, ": expected ", count,
                    " numbers after the command line, found ", values.size(), " before the end of the file");
                std::string& text = lines_[i];
                std::size_t pos = 0;
                while ((long long)values.size() < count) {
                    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) {
                        ++pos;
                    }
                    if (pos >= text.size()) {
                        break;
                    }
                    std::size_t end = pos;
                    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) {
                        ++end;
                    }
                    const std::string token = text.substr(pos, end - pos);
                    double v = 0;
                    require(parse_double(token, v) && std::isfinite(v), where(i + 1), ": ", command,
                        ": expected a number (value ", values.size() + 1, " of ", count, "), got '", token, "'");
                    values.push_back(v);
                    pos = end;
                }
                if ((long long)values.size() == count) {
                    const std::string rest = text.substr(pos);
                    if (split(rest).empty()) {
                        ++i;
                    } else {
                        text = rest; // read again as a line
                    }
                } else {
                    ++i;
                }
            }
            return values;
        }

        /// Tokens of a shape line: '#' starts a comment, a lone '\' continues
        /// the line on the next physical line.
        std::vector<std::string> shape_tokens(std::size_t& i)
        {
            std::vector<std::string> tokens;
            while (i < lines_.size()) {
                const auto t = split(lines_[i]);
                ++i;
                bool more = false;
                for (const std::string& tok : t) {
                    if (is_comment(tok)) {
                        break;
                    }
                    if (tok == "\\") {
                        more = true;
                        break;
                    }
                    tokens.push_back(tok);
                }
                if (!more) {
                    break;
                }
            }
            return tokens;
        }

        static std::string solver_name(const std::string& s) { return s == "IP" ? "interiorPoint" : s; }

        // ------------------------------------------------------------ parsing

        void parse()
        {
            std::size_t i = 0;
            while (i < lines_.size()) {
                const std::size_t line = i + 1;
                const auto t = split(lines_[i]);
                ++i;
                if (t.empty() || is_comment(t[0])) {
                    continue;
                }
                command(t, line, i);
            }
        }

        void command(const std::vector<std::string>& t, std::size_t line, std::size_t& i)
        {
            const std::string& c = t[0];
            Args a { *this, t, line, c };
            static const std::set<std::string> display { "view", "zoom", "cameraTracking", "playBackSpeed", "appendStr",
                "disableCout" };
            static const std::set<std::string> qp_only { "constraintType", "constraintOffset", "QPSolver",
                "useActiveSetConvergence", "noActiveSetConvergence" };
            static const std::set<std::string> unused { "kappaMinMultiplier", "CCDMethod", "linearSolver",
                "handleRatio", "DBCTimeRange", "NBCTimeRange", "restart" };
            static const std::set<std::string> foreign { "timeStepper", "resolution" };
            if (display.count(c)) {
                warn(line, "ignored: display only (" + c + ")");
                return;
            }
            if (qp_only.count(c)) {
                warn(line, "ignored: QP/SQP comparison setting only (" + c + ")");
                return;
            }
            if (unused.count(c)) {
                warn(line, "ignored: " + c + " is not supported by this reader (unused by the paper examples)");
                return;
            }
            if (foreign.count(c)) {
                warn(line, "ignored: " + c + " is not an IPC command (the original skips it)");
                return;
            }
            if (c == "energy") {
                const std::string e = a.word("NH or FCR");
                if (e == "FCR") {
                    energy_ = VolumeModel::fixed_corotated;
                } else {
                    energy_ = VolumeModel::neo_hookean;
                    if (e != "NH") {
                        warn(line, "energy '" + e + "' unknown: NH used (as the original does)");
                    }
                }
            } else if (c == "density") {
                density_ = a.real("the density rho");
                require(density_ > 0, where(line), ": density must be positive, got ", density_);
            } else if (c == "stiffness") {
                young_ = a.real("Young's modulus E");
                poisson_ = a.real("the Poisson ratio nu");
                require(young_ > 0 && poisson_ > -1 && poisson_ < 0.5, where(line),
                    ": stiffness needs E > 0 and nu in (-1, 0.5), got ", young_, " ", poisson_);
            } else if (c == "turnOffGravity") {
                gravity_ = false;
            } else if (c == "timeIntegration") {
                const std::string type = a.word("BE or NM");
                if (type == "NM") {
                    if (a.more()) {
                        a.real("beta");
                        a.real("gamma");
                    }
                    warn(line, "timeIntegration NM (Newmark): backward Euler used");
                } else if (type != "BE") {
                    warn(line, "timeIntegration '" + type + "' unknown: backward Euler used");
                }
            } else if (c == "dampingStiff") {
                const double k = a.real("the damping stiffness");
                if (k > 0) {
                    warn(line, "dampingStiff " + num_str(k) + ": damping not modelled");
                }
            } else if (c == "time") {
                duration_ = a.real("the duration T");
                dt_ = a.real("the time step h");
                require(duration_ > 0 && dt_ > 0, where(line), ": time needs T > 0 and h > 0, got ", duration_, " ", dt_);
            } else if (c == "shapes") {
                a.word("the type tag (input)");
                const long long n = a.integer("the number of shapes N");
                require(n >= 0, where(line), ": shapes: N must be >= 0, got ", n);
                a.finish(*this);
                for (long long k = 0; k < n; ++k) {
                    while (i < lines_.size()) {
                        const auto s = split(lines_[i]);
                        if (!s.empty() && !is_comment(s[0])) {
                            break;
                        }
                        ++i;
                    }
                    require(i < lines_.size(), where(line), ": shapes input ", n, ": expected ", n,
                        " shape lines, found ", k, " before the end of the file");
                    const std::size_t shape_line = i + 1;
                    shape_line_spec(shape_tokens(i), shape_line, true);
                }
                return;
            } else if (c == "shape") {
                a.word("the type tag (input)");
                ShapeSpec s;
                s.path = a.word("a mesh path");
                s.line = line;
                shapes_.push_back(s);
            } else if (c == "shapeMatrix") {
                a.word("the type tag (input)");
                std::array<long long, 3> n {};
                for (auto& k : n) {
                    k = a.integer("the counts nx ny nz");
                    require(k >= 0, where(line), ": shapeMatrix counts must be >= 0, got ", k);
                }
                Vector3d o = Vector3d::Zero();
                if (a.more()) {
                    o = a.vec3("the offset ox oy oz");
                }
                a.finish(*this);
                require(i < lines_.size(), where(line), ": shapeMatrix: expected its template line after it");
                const std::size_t template_line = i + 1;
                const auto tokens = shape_tokens(i);
                const std::size_t first = shapes_.size();
                shape_line_spec(tokens, template_line, false);
                const ShapeSpec base = shapes_.back();
                shapes_.resize(first);
                const Vector3d step = base.t;
                for (long long x = 0; x < n[0]; ++x) {
                    for (long long y = 0; y < n[1]; ++y) {
                        for (long long z = 0; z < n[2]; ++z) {
                            ShapeSpec s = base;
                            s.t = o + Vector3d(double(x) * step.x(), double(y) * step.y(), double(z) * step.z());
                            shapes_.push_back(s);
                        }
                    }
                }
                return;
            } else if (c == "rotateModel") {
                rotate_axis_ = a.vec3("the axis ax ay az");
                rotate_deg_ = a.real("the angle (degrees)");
                if (rotate_deg_ == 0) {
                    warn(line, "rotateModel by 0 degrees: no effect");
                } else {
                    require(rotate_axis_.norm() > 0, where(line), ": rotateModel: the axis must not be zero");
                }
            } else if (c == "size") {
                size_ = a.real("the size s");
            } else if (c == "halfSpace") {
                HalfSpaceSpec h;
                h.o = a.vec3("the point ox oy oz");
                h.n = a.vec3("the normal nx ny nz");
                a.real("the stiffness k");
                h.mu = a.real("the friction coefficient mu");
                h.line = line;
                require(h.n.norm() > 0, where(line), ": halfSpace: the normal must not be zero");
                h.n.normalize();
                half_spaces_.push_back(h);
                warn(line, "halfSpace: stiffness field ignored (unused by IPC)");
            } else if (c == "ground") {
                HalfSpaceSpec h;
                h.mu = a.real("the friction coefficient mu");
                const double y = a.real("the height y");
                h.o = Vector3d(0, y, 0);
                h.n = Vector3d::UnitY();
                h.line = line;
                half_spaces_.push_back(h);
            } else if (c == "meshCO") {
                MeshCoSpec m;
                m.path = a.word("an OBJ path");
                m.x = a.vec3("the position x y z");
                m.s = a.real("the size s");
                a.real("the stiffness k");
                m.mu = a.real("the friction coefficient mu");
                m.line = line;
                require(m.s > 0, where(line), ": meshCO: the size must be positive, got ", m.s);
                if (a.more()) {
                    const std::string kw = a.word("rotate");
                    if (kw == "rotate") {
                        m.rot = a.vec3("the rotation rx ry rz (degrees)");
                    } else {
                        --a.next;
                    }
                }
                mesh_cos_.push_back(m);
                warn(line, "meshCO: stiffness and friction fields ignored (the original evaluates no friction "
                           "against mesh obstacles)");
            } else if (c == "selfCollisionOn") {
                warn(line, "ignored: selfCollisionOn is already the default");
            } else if (c == "selfCollisionOff") {
                warn(line, "selfCollisionOff not reproduced: self contact (and contact with codim shapes) stays on");
            } else if (c == "selfFric") {
                self_fric_ = std::max(0.0, a.real("the friction coefficient mu"));
            } else if (c == "tuning" || c == "tol") {
                const long long n = a.integer("the count N");
                require(n >= 0, where(line), ": ", c, ": N must be >= 0, got ", n);
                a.finish(*this);
                const std::vector<double> v = read_numbers(i, n, line, c.c_str());
                if (c == "tol") {
                    tol_ = v;
                    tol_line_ = line;
                } else {
                    for (std::size_t k = 0; k < v.size(); ++k) {
                        if (k < tuning_.size()) {
                            tuning_[k] = v[k];
                        } else {
                            warn(line, "tuning value " + std::to_string(k) + " ignored (only 6 slots exist)");
                        }
                    }
                    if (v.size() > 3 && v[3] != 1e-9) {
                        warn(line, "tuning[3] (tiny-distance fail-safe of the dhat continuation) not used");
                    }
                    tuning_line_ = line;
                }
                return;
            } else if (c == "dHat") {
                tuning_[1] = tuning_[2] = a.real("dhat / l");
                tuning_line_ = line;
            } else if (c == "epsv") {
                tuning_[4] = tuning_[5] = a.real("eps_v / l");
                tuning_line_ = line;
            } else if (c == "useAbsParameters") {
                absolute_ = true;
            } else if (c == "fricIterAmt") {
                fric_iter_ = a.integer("the number of friction updates n");
                fric_iter_line_ = line;
            } else if (c == "constraintSolver") {
                const std::string s = solver_name(a.word("interiorPoint, IP, QP or SQP"));
                require(s == "interiorPoint" || s == "QP" || s == "SQP", where(line),
                    ": constraintSolver: expected interiorPoint, IP, QP or SQP, got '", t[1], "'");
                solver_ = s;
                if (s != "interiorPoint") {
                    warn(line, "constraintSolver " + s + ": the comparison solver is not available; IPC is used");
                }
            } else if (c == "warmStart") {
                const long long w = a.integer("the warm start mode w");
                if (w != 0) {
                    warn(line, "warmStart " + std::to_string(w) + " not reproduced: each step starts from x^n");
                }
            } else if (c == "script") {
                script_ = a.word("a script name");
                script_line_ = line;
                script_params_.clear();
                if (a.more()) {
                    const long long n = a.integer("the number of parameters n");
                    for (long long k = 0; k < n; ++k) {
                        script_params_.push_back(a.real("a script parameter"));
                    }
                }
            } else if (c == "section") {
                bool match = false;
                std::string names;
                for (std::size_t k = 1; k < t.size(); ++k) {
                    names += " " + t[k];
                    if (t[k] == "end" || solver_name(t[k]) == solver_) {
                        match = true;
                    }
                }
                if (match) {
                    return;
                }
                std::size_t j = i;
                bool closed = false;
                while (j < lines_.size()) {
                    const auto s = split(lines_[j]);
                    ++j;
                    if (s.size() >= 2 && s[0] == "section" && s[1] == "end") {
                        closed = true;
                        break;
                    }
                }
                warn(line,
                    "section" + names + " skipped (settings for another constraint solver), "
                        + (closed ? "lines " + std::to_string(line) + "-" + std::to_string(j)
                                  : "to the end of the file (no 'section end')"));
                i = j;
                return;
            } else {
                require(false, where(line), ": unknown command '", c, "'");
            }
            a.finish(*this);
        }

        /// Reads a shape line into shapes_ (keywords only when allowed).
        void shape_line_spec(const std::vector<std::string>& tokens, std::size_t line, bool keywords)
        {
            Args a { *this, tokens, line, "shape line" };
            a.next = 0;
            ShapeSpec s;
            s.line = line;
            s.path = a.word("a mesh path");
            s.t = a.vec3("the translation tx ty tz");
            s.r = a.vec3("the rotation rx ry rz (degrees)");
            s.s = a.vec3("the scale sx sy sz");
            while (a.more()) {
                const std::string kw = a.word("a keyword");
                if (kw == "material") {
                    s.material = a.vec3("material rho E nu");
                    continue;
                }
                if (!keywords) {
                    warn(line, "shapeMatrix template: keyword '" + kw + "' ignored (instances carry no keywords)");
                    continue;
                }
                if (kw == "initVel") {
                    const Vector3d v = a.vec3("initVel v");
                    const Vector3d w = a.vec3("initVel w (degrees/s)");
                    s.init_vel = std::make_pair(v, w * deg);
                    s.keywords = true;
                } else if (kw == "linearVelocity") {
                    s.linear_velocity = a.vec3("linearVelocity v");
                    s.keywords = true;
                } else if (kw == "angularVelocity") {
                    s.angular_velocity = a.vec3("angularVelocity w (degrees/s)") * deg;
                    s.keywords = true;
                } else if (kw == "DBC") {
                    Dbc d;
                    d.lo = a.vec3("DBC box min (fractions)");
                    d.hi = a.vec3("DBC box max (fractions)");
                    d.v = a.vec3("DBC v");
                    d.w = a.vec3("DBC w (degrees/s)") * deg;
                    double t0 = 0;
                    if (a.more() && parse_double(tokens[a.next], t0)) {
                        d.t0 = a.real("DBC window start t0");
                        d.t1 = a.real("DBC window end t1");
                        d.window = true;
                    }
                    s.dbc.push_back(d);
                    s.keywords = true;
                } else if (kw == "NBC") {
                    a.vec3("NBC box min");
                    a.vec3("NBC box max");
                    a.vec3("NBC acceleration");
                    double t0 = 0;
                    if (a.more() && parse_double(tokens[a.next], t0)) {
                        a.real("NBC window start");
                        a.real("NBC window end");
                    }
                    warn(line, "NBC (prescribed force m a) cannot be represented: ignored");
                } else if (kw == "meshSeq") {
                    a.word("meshSeq folder");
                    warn(line, "meshSeq (mesh sequence) not supported: ignored");
                } else {
                    warn(line, "unknown shape keyword '" + kw + "' ignored (as the original does)");
                }
            }
            shapes_.push_back(s);
        }

        // ------------------------------------------------------------ files

        /// The first existing file for a relative path: the script's folder,
        /// each ancestor, the current directory.
        std::optional<std::string> find_file(const std::string& p) const
        {
            const fs::path rel(p);
            std::error_code ec;
            if (rel.is_absolute()) {
                return fs::is_regular_file(rel, ec) ? std::optional<std::string>(p) : std::nullopt;
            }
            fs::path dir = fs::absolute(fs::path(path_), ec).parent_path();
            while (true) {
                const fs::path candidate = dir / rel;
                if (fs::is_regular_file(candidate, ec)) {
                    return candidate.string();
                }
                if (!dir.has_parent_path() || dir.parent_path() == dir) {
                    break;
                }
                dir = dir.parent_path();
            }
            if (fs::is_regular_file(rel, ec)) {
                return p;
            }
            return std::nullopt;
        }

        static std::string lower_extension(const std::string& p)
        {
            std::string e = fs::path(p).extension().string();
            std::transform(e.begin(), e.end(), e.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
            return e;
        }

        std::shared_ptr<const LoadedMesh> load_shape(const std::string& p, std::size_t line)
        {
            const std::string ext = lower_extension(p);
            require(ext == ".msh" || ext == ".obj" || ext == ".seg" || ext == ".pt", where(line), ": mesh file ", p,
                ": unsupported kind '", ext, "' (expected .msh, .obj, .seg or .pt; TetGen input is not supported)");
            std::optional<std::string> file = find_file(p);
            bool fallback = false;
            if (!file && (ext == ".seg" || ext == ".pt")) {
                const std::string obj = (fs::path(p).parent_path() / fs::path(p).stem()).string() + ".obj";
                file = find_file(obj);
                fallback = bool(file);
                if (fallback) {
                    warn(line, "cannot open " + p + ": using " + obj + " instead (the original's fallback: "
                            + (ext == ".seg" ? "its unique edges)" : "its vertices)"));
                }
            }
            require(bool(file), where(line), ": cannot open mesh file ", p,
                " (tried the script's folder, its ancestors and the current directory)");
            const std::string key = *file + (fallback ? ext : "");
            const auto it = cache_.find(key);
            if (it != cache_.end()) {
                return it->second;
            }
            auto m = std::make_shared<LoadedMesh>();
            if (ext == ".msh") {
                TetMesh t = read_msh(*file);
                m->kind = ShapeKind::volume;
                m->V = std::move(t.vertices);
                m->E = std::move(t.tets);
                m->faces = boundary_faces(m->E).rows();
            } else if (ext == ".obj") {
                TriangleMesh t = read_obj(*file);
                m->kind = ShapeKind::triangles;
                m->V = std::move(t.vertices);
                m->E = std::move(t.faces);
            } else if (ext == ".seg" && !fallback) {
                SegmentMesh s = read_seg(*file);
                m->kind = ShapeKind::segments;
                m->V = std::move(s.vertices);
                m->E = std::move(s.segments);
            } else if (ext == ".seg") {
                const TriangleMesh t = read_obj(*file);
                std::set<std::pair<int, int>> edges;
                for (Index f = 0; f < t.faces.rows(); ++f) {
                    for (int k = 0; k < 3; ++k) {
                        const int a = t.faces(f, k), b = t.faces(f, (k + 1) % 3);
                        edges.insert({ std::min(a, b), std::max(a, b) });
                    }
                }
                m->kind = ShapeKind::segments;
                m->V = t.vertices;
                m->E.resize(Index(edges.size()), 2);
                Index r = 0;
                for (const auto& [a, b] : edges) {
                    m->E.row(r++) << a, b;
                }
            } else {
                m->kind = ShapeKind::points;
                m->V = read_points(*file);
            }
            cache_[key] = m;
            return m;
        }

        // ------------------------------------------------------------ building

        static void aabb(const Eigen::MatrixXd& X, Index first, Index count, Vector3d& lo, Vector3d& hi)
        {
            lo = X.middleRows(first, count).colwise().minCoeff().transpose();
            hi = X.middleRows(first, count).colwise().maxCoeff().transpose();
        }

        IpcScriptImport build()
        {
            const std::size_t sl = script_line_;
            out_.script_name = script_;
            out_.duration = duration_;
            const int steps = int(std::ceil(duration_ / dt_ - 1e-9));

            // Section 5: place the shapes and concatenate them.
            std::vector<Component> comps;
            Index n = 0;
            for (const ShapeSpec& s : shapes_) {
                Component c;
                c.mesh = load_shape(s.path, s.line);
                c.kind = c.mesh->kind;
                c.first = n;
                c.count = c.mesh->V.rows();
                c.spec = &s;
                n += c.count;
                comps.push_back(c);
            }
            require(!comps.empty(), where(0), ": the script defines no shapes");
            Eigen::MatrixXd X(n, 3);
            for (const Component& c : comps) {
                const Eigen::Matrix3d R = rotation_xyz(c.spec->r);
                for (Index v = 0; v < c.count; ++v) {
                    const Vector3d x = c.mesh->V.row(v).transpose();
                    X.row(c.first + v) = (R * c.spec->s.cwiseProduct(x) + c.spec->t).transpose();
                }
            }
            Eigen::MatrixXd X0 = X, Xrest = X;
            if (rotate_deg_ != 0) {
                const Vector3d c = 0.5 * (X0.colwise().maxCoeff() - X0.colwise().minCoeff()).transpose();
                const Eigen::Matrix3d Q
                    = Eigen::AngleAxisd(rotate_deg_ * deg, rotate_axis_.normalized()).toRotationMatrix();
                for (Index v = 0; v < n; ++v) {
                    X0.row(v) = (Q * (X0.row(v).transpose() - c) + c).transpose();
                }
            }
            if (size_ > 0) {
                const Eigen::RowVector3d lo = X0.colwise().minCoeff();
                const double side = (X0.colwise().maxCoeff() - lo).maxCoeff();
                require(side > 0, where(0), ": size: the shapes have an empty bounding box");
                out_.scale = size_ / side;
                X0 = out_.scale * (X0.rowwise() - lo);
                Xrest = out_.scale * (Xrest.rowwise() - lo);
            }

            // Section 6: l over the volumetric rest shapes.
            {
                Vector3d lo = Vector3d::Constant(inf), hi = Vector3d::Constant(-inf);
                for (const Component& c : comps) {
                    if (c.kind == ShapeKind::volume) {
                        Vector3d a, b;
                        aabb(Xrest, c.first, c.count, a, b);
                        lo = lo.cwiseMin(a);
                        hi = hi.cwiseMax(b);
                    }
                }
                if (!(lo.x() <= hi.x())) {
                    aabb(Xrest, 0, n, lo, hi);
                    warn(0, "no volumetric shape: l measured over all shapes");
                }
                out_.tolerance_length = (hi - lo).norm();
            }
            const double l = out_.tolerance_length;

            // Section 7: the script.
            std::vector<int> state(std::size_t(n), 0); // 0 free, 1 held, 2 scripted
            std::vector<ScriptedMotion> motion(static_cast<std::size_t>(n));
            Eigen::MatrixXd V0 = Eigen::MatrixXd::Zero(n, 3);
            std::optional<Model::Release> release;
            const auto hold = [&](Index v) { state[std::size_t(v)] = std::max(state[std::size_t(v)], 1); };
            const auto move = [&](Index v, const ScriptedMotion& m) {
                state[std::size_t(v)] = 2;
                motion[std::size_t(v)] = m;
            };
            bool codim_free = false; // the original would leave codim shapes free
            std::size_t driven = 0;  // components driven by a DCO roller/squash script
            const auto span = [&](const Eigen::MatrixXd& Y, Vector3d& lo, Vector3d& hi) { aabb(Y, 0, n, lo, hi); };
            const auto need_components = [&](std::size_t k) {
                require(comps.size() >= k, where(sl), ": script ", script_, " needs at least ", k,
                    " shapes, the script has ", comps.size());
            };
            const auto lift = [&]() {
                Vector3d lo, hi;
                span(X0, lo, hi);
                out_.lift = 0.5 * (hi - lo).norm();
                X0.col(1).array() += out_.lift;
            };
            const auto comp_box = [&](const Component& c, Vector3d& lo, Vector3d& hi) {
                aabb(X0, c.first, c.count, lo, hi);
            };
            if (script_ == "fall") {
                lift();
                codim_free = true;
            } else if (script_ == "fallNoShift") {
                codim_free = true;
            } else if (script_ == "dragright") {
                lift();
                codim_free = true;
                Vector3d lo, hi;
                span(X0, lo, hi);
                for (Index v = 0; v < n; ++v) {
                    if (X0(v, 0) > hi.x() - 0.04 * (hi.x() - lo.x())) {
                        move(v, translation(Vector3d(0.5, 0, 0)));
                    }
                }
                double above = -inf;
                for (const MeshCoSpec& m : mesh_cos_) {
                    above = std::max(above, mesh_co_vertices(m).col(0).maxCoeff());
                }
                if (mesh_cos_.empty()) {
                    warn(sl, "dragright without meshCO: the drag is released at the first step");
                    above = std::numeric_limits<double>::lowest();
                }
                release = Model::Release { 0, above };
            } else if (script_ == "pushRightMost1") {
                codim_free = true;
                Vector3d lo, hi;
                span(X0, lo, hi);
                for (Index v = 0; v < n; ++v) {
                    if (X0(v, 0) > hi.x() - 1e-3 * (hi.x() - lo.x())) {
                        move(v, translation(Vector3d(-0.15, 0, 0)));
                        break;
                    }
                }
            } else if (script_ == "fixLowerHalf") {
                codim_free = true;
                Vector3d lo, hi;
                span(X0, lo, hi);
                for (Index v = 0; v < n; ++v) {
                    if (X0(v, 1) < lo.y() + 0.5 * (hi.y() - lo.y())) {
                        hold(v);
                    }
                }
            } else if (script_ == "twist") {
                codim_free = true;
                Vector3d lo, hi;
                span(Xrest, lo, hi);
                const Vector3d c = 0.5 * (lo + hi);
                const double w = 0.4 * ipc_pi;
                for (Index v = 0; v < n; ++v) {
                    if (Xrest(v, 0) < lo.x() + 0.01 * (hi.x() - lo.x())) {
                        move(v, rotation(Vector3d(-w, 0, 0), c));
                    } else if (Xrest(v, 0) > hi.x() - 0.01 * (hi.x() - lo.x())) {
                        move(v, rotation(Vector3d(w, 0, 0), c));
                    }
                }
            } else if (script_ == "stretchAndPause") {
                codim_free = true;
                Vector3d lo, hi;
                span(X0, lo, hi);
                std::vector<Index> left, right;
                for (Index v = 0; v < n; ++v) {
                    if (X0(v, 0) < lo.x() + 0.01 * (hi.x() - lo.x())) {
                        left.push_back(v);
                    } else if (X0(v, 0) > hi.x() - 0.01 * (hi.x() - lo.x())) {
                        right.push_back(v);
                    }
                }
                require(!left.empty(), where(sl), ": stretchAndPause: no left vertices");
                double x = X0(left.back(), 0);
                int stop = steps;
                for (int k = 0; k < steps; ++k) {
                    if (!(x >= -0.28)) {
                        stop = k;
                        break;
                    }
                    x += -1.0 * dt_;
                }
                const double end = stop < steps ? stop * dt_ : inf;
                for (const Index v : left) {
                    if (end > 0) {
                        move(v, translation(Vector3d(-1, 0, 0), 0, end));
                    } else {
                        hold(v);
                    }
                }
                for (const Index v : right) {
                    if (end > 0) {
                        move(v, translation(Vector3d(1, 0, 0), 0, end));
                    } else {
                        hold(v);
                    }
                }
                warn(sl, "stretchAndPause: evaluated at import time, the ends move for "
                        + (end < inf ? num_str(end) + " s, then are held" : "the whole run"));
            } else if (script_ == "DCOFix") {
                // codim shapes held: nothing else
            } else if (script_ == "DCOBallHitWall") {
                const double v = script_params_.empty() ? 1000 : script_params_[0];
                for (const Component& c : comps) {
                    if (c.kind == ShapeKind::volume) {
                        V0.middleRows(c.first, c.count).rowwise() = Eigen::RowVector3d(v, 0, 0);
                    }
                }
            } else if (script_ == "DCORotCylinders" || script_ == "DCOVerschoorRoller") {
                const bool roller = script_ == "DCORotCylinders";
                const double q = ipc_pi / 2;
                const std::vector<Vector3d> w = roller
                    ? std::vector<Vector3d> { { q, 0, 0 }, { -q, 0, 0 }, { 0, 0, -q }, { 0, 0, q } }
                    : std::vector<Vector3d> { { 0, 0, -4 }, { 0, 0, -2 }, { 0, 0, 2 }, { 0, 0, 4 }, { 2, 0, 0 },
                          { -2, 0, 0 } };
                need_components(roller ? std::size_t(5) : w.size());
                driven = w.size();
                for (std::size_t k = 0; k < w.size(); ++k) {
                    Vector3d lo, hi;
                    comp_box(comps[k], lo, hi);
                    const ScriptedMotion m = rotation(w[k], 0.5 * (lo + hi));
                    for (Index v = 0; v < comps[k].count; ++v) {
                        move(comps[k].first + v, m);
                    }
                }
            } else if (script_ == "DCOSquash6") {
                need_components(8);
                driven = 6;
                const std::vector<Vector3d> vel { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 },
                    { 0, 0, -1 } };
                Vector3d lo0, hi0, lo1, hi1;
                comp_box(comps[0], lo0, hi0);
                comp_box(comps[1], lo1, hi1);
                double max0 = hi0.x(), min1 = lo1.x();
                double sign = 1;
                std::vector<double> switches { 0 };
                for (int k = 0; k < steps; ++k) {
                    if (min1 - max0 < 0.1) {
                        sign = -sign;
                        switches.push_back(k * dt_);
                    }
                    max0 += sign * dt_;
                    min1 -= sign * dt_;
                }
                for (std::size_t c = 0; c < 6; ++c) {
                    ScriptedMotion m;
                    for (std::size_t s = 0; s < switches.size(); ++s) {
                        const double begin = switches[s];
                        const double end = s + 1 < switches.size() ? switches[s + 1] : inf;
                        if (end > begin) {
                            m.segments.push_back(
                                translation(((s % 2) ? -1.0 : 1.0) * vel[c], begin, end).segments[0]);
                        }
                    }
                    for (Index v = 0; v < comps[c].count; ++v) {
                        move(comps[c].first + v, m);
                    }
                }
                if (switches.size() > 1) {
                    warn(sl, "DCOSquash6: reversals evaluated at import time, the walls first reverse at t = " + num_str(switches[1]) + " s ("
                            + std::to_string(switches.size() - 1) + " reversal(s) within T)");
                }
            } else if (script_ == "DCOSegBedSquash") {
                const std::size_t split = (comps.size() + 1) / 2;
                double max_low = -inf, min_high = inf;
                for (std::size_t k = 0; k < comps.size(); ++k) {
                    if (comps[k].kind == ShapeKind::volume) {
                        continue;
                    }
                    Vector3d lo, hi;
                    comp_box(comps[k], lo, hi);
                    if (k >= split) {
                        min_high = std::min(min_high, lo.y());
                    } else {
                        max_low = std::max(max_low, hi.y());
                    }
                }
                int stop = steps;
                double y = min_high;
                for (int k = 0; k < steps; ++k) {
                    if (!(y - max_low > 0.1)) {
                        stop = k;
                        break;
                    }
                    y -= dt_;
                }
                const double end = stop < steps ? stop * dt_ : inf;
                if (end > 0) {
                    const ScriptedMotion m = translation(Vector3d(0, -1, 0), 0, end);
                    for (std::size_t k = split; k < comps.size(); ++k) {
                        if (comps[k].kind != ShapeKind::volume) {
                            for (Index v = 0; v < comps[k].count; ++v) {
                                move(comps[k].first + v, m);
                            }
                        }
                    }
                }
                warn(sl, "DCOSegBedSquash: stop evaluated at import time, the upper bed moves for " + (end < inf ? num_str(end) + " s" : "the whole run"));
            } else if (script_ == "DCOSqueezeOut") {
                need_components(2);
                Vector3d lo0, hi0, lo1, hi1;
                comp_box(comps[0], lo0, hi0);
                comp_box(comps[1], lo1, hi1);
                const double threshold = lo1.y() + 0.9 * (hi1.y() - lo1.y()) / 3.8;
                double y = hi0.y();
                int stop = steps;
                for (int k = 0; k < steps; ++k) {
                    if (!(y > threshold)) {
                        stop = k;
                        break;
                    }
                    y -= 0.3 * dt_;
                }
                const double end = stop < steps ? stop * dt_ : inf;
                if (end > 0) {
                    for (Index v = 0; v < comps[0].count; ++v) {
                        move(comps[0].first + v, translation(Vector3d(0, -0.3, 0), 0, end));
                    }
                }
                warn(sl, "DCOSqueezeOut: the intended rule of the 2020 release is used (HEAD never moves the plate); "
                         "the plate moves for "
                        + (end < inf ? num_str(end) + " s" : "the whole run"));
            } else if (script_ == "utopiaComparison") {
                codim_free = true;
                Vector3d lo, hi;
                span(X0, lo, hi);
                const double band = 1e-4 * (hi.x() - lo.x());
                for (Index v = 0; v < n; ++v) {
                    if (X0(v, 1) < lo.y() + band) {
                        hold(v);
                    }
                }
                warn(sl, "utopiaComparison: the top band's acceleration (0, -1.5, 0) cannot be represented: ignored");
            } else if (script_ == "null") {
                null_keywords(comps, X0, V0, move);
            } else {
                require(false, where(sl), ": script '", script_, "' is not supported");
            }
            if (script_ != "null") {
                for (const ShapeSpec& s : shapes_) {
                    if (s.keywords) {
                        warn(s.line, "per-shape velocity/DBC keywords ignored: they only apply under script null");
                    }
                }
            }
            bool has_codim = false;
            Index volumes = 0;
            for (std::size_t k = 0; k < comps.size(); ++k) {
                if (comps[k].kind == ShapeKind::volume) {
                    ++volumes;
                    continue;
                }
                has_codim = true;
                if (codim_free || (driven > 0 && k >= driven)) {
                    warn(comps[k].spec->line, "codim shape " + std::to_string(k)
                            + " kept held (the original would leave it free; it has no elasticity here)");
                }
            }

            // The model.
            Scene& scene = out_.scene;
            Model& model = scene.model;
            for (const Component& c : comps) {
                const Eigen::MatrixXd P = X0.middleRows(c.first, c.count);
                switch (c.kind) {
                case ShapeKind::volume: {
                    VolumeMaterial m;
                    m.density = density_;
                    m.young = young_;
                    m.poisson = poisson_;
                    m.model = energy_;
                    if (c.spec->material && (*c.spec->material)[0] > 0 && (*c.spec->material)[1] > 0) {
                        m.density = (*c.spec->material)[0];
                        m.young = (*c.spec->material)[1];
                        m.poisson = (*c.spec->material)[2];
                    }
                    model.add_volume(P, c.mesh->E, m, 0);
                    out_.volume_nodes += c.count;
                    out_.volume_tets += c.mesh->E.rows();
                    out_.volume_faces += c.mesh->faces;
                    break;
                }
                case ShapeKind::triangles: model.add_obstacle(P, c.mesh->E); break;
                case ShapeKind::segments: model.add_obstacle_segments(P, c.mesh->E); break;
                case ShapeKind::points: model.add_obstacle_points(P); break;
                }
                if (c.kind != ShapeKind::volume && c.spec->material) {
                    warn(c.spec->line, "material on a codim shape ignored (it has no elasticity)");
                }
            }
            model.velocities = V0;
            for (Index v = 0; v < n; ++v) {
                if (state[std::size_t(v)] == 1) {
                    model.fix(v);
                } else if (state[std::size_t(v)] == 2) {
                    model.script(v, motion[std::size_t(v)]);
                }
            }
            model.release = release;
            model.gravity = gravity_ ? Vector3d(0, -9.80665, 0) : Vector3d::Zero();

            // Obstacles: half-spaces as analytic planes, meshCO as meshes.
            Vector3d lo = Vector3d::Constant(inf), hi = Vector3d::Constant(-inf);
            for (const Component& c : comps) {
                if (c.kind == ShapeKind::volume) {
                    Vector3d a, b;
                    comp_box(c, a, b);
                    lo = lo.cwiseMin(a);
                    hi = hi.cwiseMax(b);
                }
            }
            if (!(lo.x() <= hi.x())) {
                span(X0, lo, hi);
            }
            const Vector3d centre = 0.5 * (lo + hi);
            const double half_side = 5 * std::max((hi - lo).norm(), 1.0);
            for (const HalfSpaceSpec& h : half_spaces_) {
                // The half-space itself, as IPC treats it (exact distance and
                // CCD); drawn as a square board of half-size half_side.
                const Vector3d p = centre - h.n.dot(centre - h.o) * h.n;
                model.add_analytic_obstacle(ipc::PlaneObstacle { p, h.n }, half_side);
            }
            for (const MeshCoSpec& m : mesh_cos_) {
                model.add_obstacle(mesh_co_vertices(m), mesh_co_faces(m));
            }

            // Physics.
            ScenePhysics& ph = scene.physics;
            const double unit = absolute_ ? 1.0 : l;
            ph.dt = dt_;
            ph.contact_gap = tuning_[2] * unit;
            if (tuning_[1] != tuning_[2]) {
                warn(tuning_line_, "dhat continuation from " + num_str(tuning_[1]) + " l not reproduced: the target "
                        + num_str(tuning_[2]) + " l is used throughout");
            }
            ph.eps_v = tuning_[5] * unit;
            if (tuning_[4] != tuning_[5]) {
                warn(tuning_line_, "eps_v continuation from " + num_str(tuning_[4]) + " l not reproduced: the target "
                        + num_str(tuning_[5]) + " l is used throughout");
            }
            if (tuning_[0] > 0) {
                ph.barrier_stiffness = tuning_[0];
            }
            const double tol = tol_.empty() ? 1e-2 : tol_[0];
            for (const double t : tol_) {
                if (t != tol) {
                    warn(tol_line_, "tol gives several values: only the first (" + num_str(tol) + ") is used");
                    break;
                }
            }
            ph.newton_tolerance = tol * unit;
            ph.termination = "max_norm";
            double mu = self_fric_;
            for (const HalfSpaceSpec& h : half_spaces_) {
                if (h.mu == self_fric_) {
                    continue;
                }
                if (volumes == 1 && !has_codim) {
                    if (mu == self_fric_) {
                        mu = h.mu;
                    }
                    warn(h.line, "one friction coefficient only: the halfSpace's mu " + num_str(h.mu)
                            + " is used (selfFric " + num_str(self_fric_) + " would apply to self contact)");
                } else {
                    warn(h.line, "one friction coefficient only: selfFric " + num_str(self_fric_)
                            + " is used, also against this halfSpace (its mu is " + num_str(h.mu) + ")");
                }
            }
            ph.friction = mu;
            if (mu > 0 && !mesh_cos_.empty()) {
                warn(mesh_cos_.front().line, "meshCO contacts get friction mu " + num_str(mu)
                        + " (the original evaluates none against mesh obstacles)");
            }
            ph.friction_iterations = int(fric_iter_);
            if (fric_iter_ <= 0) {
                ph.friction_iterations = 20;
                warn(fric_iter_line_, "fricIterAmt " + std::to_string(fric_iter_)
                        + " (until converged): at most 20 lagged friction updates are used");
            }
            scene.offset = 0;
            scene.frames = std::max(1, steps);
            scene.name = fs::path(path_).stem().string();
            scene.description = "IPC 2020 scene script " + fs::path(path_).filename().string() + " (script " + script_
                + ", " + std::to_string(steps) + " steps of " + num_str(dt_) + " s)";
            Vector3d a, b;
            span(X0, a, b);
            scene.target = 0.5 * (a + b);
            scene.eye = scene.target + Vector3d(0.8, 0.6, 1.6) * std::max((b - a).norm(), 1e-3);
            return std::move(out_);
        }

        /// Section 3's per-shape keywords under script null.
        template <typename Move>
        void null_keywords(const std::vector<Component>& comps, const Eigen::MatrixXd& X0, Eigen::MatrixXd& V0,
            const Move& move)
        {
            for (const Component& c : comps) {
                const ShapeSpec& s = *c.spec;
                Vector3d lo, hi;
                aabb(X0, c.first, c.count, lo, hi);
                const Vector3d centre = 0.5 * (lo + hi);
                if (s.init_vel) {
                    const auto& [v, w] = *s.init_vel;
                    for (Index k = 0; k < c.count; ++k) {
                        const Vector3d x = X0.row(c.first + k).transpose();
                        V0.row(c.first + k) = (v + w.cross(x - centre)).transpose();
                    }
                }
                if (s.linear_velocity || s.angular_velocity) {
                    MotionSegment seg;
                    seg.velocity = s.linear_velocity.value_or(Vector3d::Zero());
                    seg.angular_velocity = s.angular_velocity.value_or(Vector3d::Zero());
                    seg.center = centre;
                    const ScriptedMotion m { { seg } };
                    for (Index k = 0; k < c.count; ++k) {
                        move(c.first + k, m);
                    }
                    if (seg.angular_velocity.norm() > 0) {
                        approximate_rotation(s.line, seg.angular_velocity,
                            "angularVelocity: rotation about the initial AABB centre " + vec_str(centre)
                                + " (moving with the shape); the original re-centres on the current AABB each step");
                    }
                }
                for (const Dbc& d : s.dbc) {
                    // The box is in fractions of the shape's file-space AABB;
                    // only surface vertices are selected.
                    const Eigen::MatrixXd& F = c.mesh->V;
                    const Vector3d flo = F.colwise().minCoeff().transpose();
                    const Vector3d fhi = F.colwise().maxCoeff().transpose();
                    std::vector<bool> surface(std::size_t(c.count), c.kind != ShapeKind::volume);
                    if (c.kind == ShapeKind::volume) {
                        const Eigen::MatrixXi B = boundary_faces(c.mesh->E);
                        for (Index f = 0; f < B.rows(); ++f) {
                            for (int k = 0; k < 3; ++k) {
                                surface[std::size_t(B(f, k))] = true;
                            }
                        }
                    }
                    std::vector<Index> selected;
                    for (Index k = 0; k < c.count; ++k) {
                        if (!surface[std::size_t(k)]) {
                            continue;
                        }
                        bool inside = true;
                        for (int ax = 0; ax < 3; ++ax) {
                            const double ext = fhi[ax] - flo[ax];
                            const double rel = ext > 0 ? (F(k, ax) - flo[ax]) / ext : 0;
                            inside = inside && rel >= d.lo[ax] && rel <= d.hi[ax];
                        }
                        if (inside) {
                            selected.push_back(c.first + k);
                        }
                    }
                    if (selected.empty()) {
                        warn(s.line, "DBC box selects no vertex");
                        continue;
                    }
                    Vector3d slo = Vector3d::Constant(inf), shi = Vector3d::Constant(-inf);
                    for (const Index v : selected) {
                        slo = slo.cwiseMin(X0.row(v).transpose());
                        shi = shi.cwiseMax(X0.row(v).transpose());
                    }
                    MotionSegment seg;
                    seg.begin = d.t0;
                    seg.end = d.t1;
                    seg.velocity = d.v;
                    seg.angular_velocity = d.w;
                    seg.center = 0.5 * (slo + shi);
                    ScriptedMotion m;
                    if (seg.end > seg.begin && (seg.velocity.norm() > 0 || seg.angular_velocity.norm() > 0)) {
                        m.segments.push_back(seg);
                    }
                    for (const Index v : selected) {
                        move(v, m);
                    }
                    if (d.window) {
                        warn(s.line, "DBC window [" + num_str(d.t0) + ", " + num_str(d.t1)
                                + "): the vertices stay held outside it (they cannot be released)");
                    }
                    if (d.w.norm() > 0) {
                        approximate_rotation(s.line, d.w,
                            "DBC rotation about the initial AABB centre of the selected vertices "
                                + vec_str(seg.center));
                    }
                }
            }
        }

        void approximate_rotation(std::size_t line, const Vector3d& w, const std::string& what)
        {
            int axes = 0;
            for (int k = 0; k < 3; ++k) {
                axes += w[k] != 0;
            }
            warn(line, what
                    + (axes > 1 ? "; about the fixed axis w (the original composes Rx Ry Rz per step)" : ""));
        }

        Eigen::MatrixXd mesh_co_vertices(const MeshCoSpec& m)
        {
            const auto mesh = mesh_co_mesh(m);
            const Eigen::MatrixXd& V = mesh->V;
            const Eigen::RowVector3d centroid = V.colwise().mean();
            const double L0 = (V.colwise().maxCoeff() - V.colwise().minCoeff()).maxCoeff();
            require(L0 > 0, where(m.line), ": meshCO ", m.path, ": the mesh has an empty bounding box");
            const Eigen::Matrix3d R = rotation_xyz(m.rot);
            Eigen::MatrixXd out(V.rows(), 3);
            for (Index v = 0; v < V.rows(); ++v) {
                out.row(v) = (R * (V.row(v) - centroid).transpose() * (m.s / L0) + m.x).transpose();
            }
            return out;
        }

        Eigen::MatrixXi mesh_co_faces(const MeshCoSpec& m) { return mesh_co_mesh(m)->E; }

        std::shared_ptr<const LoadedMesh> mesh_co_mesh(const MeshCoSpec& m)
        {
            require(lower_extension(m.path) == ".obj", where(m.line), ": meshCO needs an .obj file, got ", m.path);
            return load_shape(m.path, m.line);
        }

        // ------------------------------------------------------------ state

        std::string path_;
        std::vector<std::string> lines_;
        IpcScriptImport out_;
        std::map<std::string, std::shared_ptr<const LoadedMesh>> cache_;

        VolumeModel energy_ = VolumeModel::neo_hookean;
        double density_ = 1000, young_ = 1e5, poisson_ = 0.4;
        bool gravity_ = true;
        double duration_ = 5, dt_ = 0.025;
        std::vector<ShapeSpec> shapes_;
        Vector3d rotate_axis_ = Vector3d::UnitX();
        double rotate_deg_ = 0;
        double size_ = -1;
        std::vector<HalfSpaceSpec> half_spaces_;
        std::vector<MeshCoSpec> mesh_cos_;
        double self_fric_ = 0;
        std::array<double, 6> tuning_ { 0, 1e-3, 1e-3, 1e-9, 1e-3, 1e-3 };
        std::size_t tuning_line_ = 0;
        std::vector<double> tol_;
        std::size_t tol_line_ = 0;
        bool absolute_ = false;
        long long fric_iter_ = 1;
        std::size_t fric_iter_line_ = 0;
        std::string solver_ = "interiorPoint";
        std::string script_ = "null";
        std::size_t script_line_ = 0;
        std::vector<double> script_params_;
    };

} // namespace

IpcScriptImport import_ipc_script(const std::string& path)
{
    return ScriptReader(path).run();
}

} // namespace ipc::examples
