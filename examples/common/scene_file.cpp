// Scene files: reading, validating and writing (see scene_file.hpp and
// docs/scene-files.md for the format).

#include "scene_file.hpp"

#include <common/mesh_files.hpp>

#include <ipc/collisions/intersection.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ipc::examples {

namespace {

    using Doc = nlohmann::json;
    using Out = nlohmann::ordered_json;

    constexpr const char* format_name = "ipc-scene";
    constexpr int format_version = 1;

    /// An exception's message without the "ipc: " that ipc::error prepends.
    std::string bare_message(const std::exception& e)
    {
        std::string m = e.what();
        if (m.rfind("ipc: ", 0) == 0) {
            m.erase(0, 5);
        }
        return m;
    }

    /// A value as it would be written, shortened for messages.
    std::string describe(const Doc& v)
    {
        if (v.is_number_float() && !std::isfinite(v.get<double>())) {
            return ipc::detail::concat(v.get<double>());
        }
        std::string s = v.dump();
        if (s.size() > 60) {
            s = s.substr(0, 57) + "...";
        }
        return s;
    }

    // -----------------------------------------------------------------------
    // Reading: a value of the document together with its JSON path

    /// A value of the document with its JSON path (RFC 6901) and the name
    /// of the document, so that every message can say where it is.
    class Node {
    public:
        Node(const Doc& value, std::string path, const std::string& source)
            : value_(&value)
            , path_(std::move(path))
            , source_(&source)
        {
        }

        const Doc& value() const { return *value_; }
        const std::string& source() const { return *source_; }
        /// The JSON path ("/" for the document itself).
        std::string where() const { return path_.empty() ? std::string("/") : path_; }
        /// The path of a member or element of this value.
        std::string sub(const std::string& key) const { return path_ + "/" + key; }

        /// Throws ipc::invalid_argument with the document's name in front.
        [[noreturn]] void fail(const std::string& message) const
        {
            throw invalid_argument(*source_ + ": " + message);
        }
        /// "expected <what> at <path>, got <value>".
        [[noreturn]] void expected(const std::string& what) const
        {
            fail("expected " + what + " at " + where() + ", got " + describe(*value_));
        }
        /// "<path> <what>, got <value>" for a value out of its range.
        [[noreturn]] void out_of_range(const std::string& what) const
        {
            fail(where() + " " + what + ", got " + describe(*value_));
        }

        // Objects

        /// Throws unless this is an object with no members other than keys.
        void check_object(std::initializer_list<const char*> keys) const
        {
            if (!value_->is_object()) {
                expected("an object");
            }
            for (const auto& item : value_->items()) {
                if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return item.key() == k; })) {
                    std::string known;
                    for (const char* k : keys) {
                        known += known.empty() ? "" : ", ";
                        known += k;
                    }
                    fail("unknown key " + sub(item.key()) + " (expected one of: " + known + ")");
                }
            }
        }
        bool has(const char* key) const { return value_->contains(key); }
        /// The member key, which must be present.
        Node at(const char* key) const
        {
            const auto it = value_->find(key);
            if (it == value_->end()) {
                fail("missing required key " + sub(key));
            }
            return Node(*it, sub(key), *source_);
        }
        /// The member key, if present.
        std::optional<Node> find(const char* key) const
        {
            const auto it = value_->find(key);
            if (it == value_->end()) {
                return std::nullopt;
            }
            return Node(*it, sub(key), *source_);
        }
        /// The member key, if present and not null.
        std::optional<Node> find_nonnull(const char* key) const
        {
            auto n = find(key);
            if (n && n->value().is_null()) {
                return std::nullopt;
            }
            return n;
        }

        // Arrays

        /// The number of elements; throws unless this is an array.
        std::size_t size() const
        {
            if (!value_->is_array()) {
                expected("an array");
            }
            return value_->size();
        }
        Node operator[](std::size_t i) const
        {
            return Node((*value_)[i], path_ + "/" + std::to_string(i), *source_);
        }

        // Scalars

        double number() const
        {
            if (!value_->is_number()) {
                expected("a number");
            }
            const double x = value_->get<double>();
            if (!std::isfinite(x)) {
                expected("a finite number");
            }
            return x;
        }
        double positive() const
        {
            const double x = number();
            if (!(x > 0)) {
                out_of_range("must be > 0");
            }
            return x;
        }
        double nonnegative() const
        {
            const double x = number();
            if (!(x >= 0)) {
                out_of_range("must be >= 0");
            }
            return x;
        }
        long long integer() const
        {
            if (!value_->is_number_integer()) {
                expected("an integer");
            }
            const bool too_large = value_->is_number_unsigned()
                ? value_->get<unsigned long long>() > static_cast<unsigned long long>(std::numeric_limits<int>::max())
                : value_->get<long long>() > std::numeric_limits<int>::max()
                    || value_->get<long long>() < -std::numeric_limits<int>::max();
            if (too_large) {
                out_of_range("is out of the range of integers this format takes");
            }
            return value_->get<long long>();
        }
        std::string string() const
        {
            if (!value_->is_string()) {
                expected("a string");
            }
            return value_->get<std::string>();
        }
        /// [x, y, z] of finite numbers.
        Eigen::Vector3d vec3() const
        {
            if (!value_->is_array() || value_->size() != 3) {
                expected("an array of 3 numbers");
            }
            return { (*this)[0].number(), (*this)[1].number(), (*this)[2].number() };
        }

    private:
        const Doc* value_;
        std::string path_;
        const std::string* source_;
    };

    double number_or(const Node& object, const char* key, double fallback)
    {
        const auto n = object.find(key);
        return n ? n->number() : fallback;
    }
    double positive_or(const Node& object, const char* key, double fallback)
    {
        const auto n = object.find(key);
        return n ? n->positive() : fallback;
    }
    double nonnegative_or(const Node& object, const char* key, double fallback)
    {
        const auto n = object.find(key);
        return n ? n->nonnegative() : fallback;
    }
    Eigen::Vector3d vec3_or(const Node& object, const char* key, const Eigen::Vector3d& fallback)
    {
        const auto n = object.find(key);
        return n ? n->vec3() : fallback;
    }
    std::string string_or(const Node& object, const char* key, const std::string& fallback)
    {
        const auto n = object.find(key);
        return n ? n->string() : fallback;
    }

    /// Rows of cols finite numbers: [[x, y, z], ...].
    Eigen::MatrixXd read_points_array(const Node& node, int cols)
    {
        const std::size_t n = node.size();
        Eigen::MatrixXd M(Index(n), cols);
        for (std::size_t i = 0; i < n; ++i) {
            const Doc& row = node.value()[i];
            bool ok = row.is_array() && row.size() == std::size_t(cols);
            for (int j = 0; ok && j < cols; ++j) {
                const Doc& x = row[std::size_t(j)];
                ok = x.is_number() && std::isfinite(x.get<double>());
                if (ok) {
                    M(Index(i), j) = x.get<double>();
                }
            }
            if (!ok) { // the slow path only to say what is wrong
                const Node r = node[i];
                if (!row.is_array() || row.size() != std::size_t(cols)) {
                    r.expected("an array of " + std::to_string(cols) + " numbers");
                }
                for (int j = 0; j < cols; ++j) {
                    r[std::size_t(j)].number();
                }
            }
        }
        return M;
    }

    /// Rows of cols vertex indices in [0, count): [[a, b, c], ...]. what
    /// names the owner of the vertices in messages.
    Eigen::MatrixXi read_index_array(const Node& node, int cols, Index count, const std::string& what)
    {
        const std::size_t n = node.size();
        Eigen::MatrixXi M(Index(n), cols);
        for (std::size_t i = 0; i < n; ++i) {
            const Doc& row = node.value()[i];
            if (!row.is_array() || row.size() != std::size_t(cols)) {
                node[i].expected("an array of " + std::to_string(cols) + " vertex indices");
            }
            for (int j = 0; j < cols; ++j) {
                const Doc& x = row[std::size_t(j)];
                if (!x.is_number_integer() || x.get<long long>() < 0 || x.get<long long>() >= count) {
                    const Node e = node[i][std::size_t(j)];
                    const long long v = e.integer();
                    e.fail("vertex index " + std::to_string(v) + " at " + e.where() + " is out of range for " + what
                        + " (" + std::to_string(count) + " vertices)");
                }
                M(Index(i), j) = int(x.get<long long>());
            }
        }
        return M;
    }

    // -----------------------------------------------------------------------
    // Names

    constexpr std::array<std::pair<const char*, Model::BodyKind>, 7> body_kinds { {
        { "shell", Model::BodyKind::shell },
        { "volume", Model::BodyKind::volume },
        { "rod", Model::BodyKind::rod },
        { "particles", Model::BodyKind::particles },
        { "obstacle", Model::BodyKind::obstacle },
        { "obstacle_segments", Model::BodyKind::obstacle_segments },
        { "obstacle_points", Model::BodyKind::obstacle_points },
    } };

    const char* body_kind_name(Model::BodyKind kind)
    {
        for (const auto& [name, k] : body_kinds) {
            if (k == kind) {
                return name;
            }
        }
        return "?";
    }

    bool is_obstacle(Model::BodyKind kind)
    {
        return kind == Model::BodyKind::obstacle || kind == Model::BodyKind::obstacle_segments
            || kind == Model::BodyKind::obstacle_points;
    }

    /// The key of a body's elements and their number of columns (nullptr
    /// for bodies without elements).
    std::pair<const char*, int> element_key(Model::BodyKind kind)
    {
        switch (kind) {
        case Model::BodyKind::shell:
        case Model::BodyKind::obstacle: return { "faces", 3 };
        case Model::BodyKind::volume: return { "tets", 4 };
        case Model::BodyKind::obstacle_segments: return { "segments", 2 };
        default: return { nullptr, 0 };
        }
    }

    constexpr std::array<const char*, 3> axis_names { "x", "y", "z" };

    // -----------------------------------------------------------------------
    // Bodies

    /// Where a body's vertices went.
    struct BodyRange {
        Model::BodyKind kind;
        Index first = 0;
        Index count = 0;
    };

    /// Vertices and elements of a body before it is added.
    struct Geometry {
        Eigen::MatrixXd vertices;
        Eigen::MatrixXi elements;
    };

    /// cos and sin of an angle in degrees, exact at multiples of 90.
    std::pair<double, double> cos_sin_degrees(double degrees)
    {
        double r = std::fmod(degrees, 360.0);
        if (r < 0) {
            r += 360;
        }
        if (r == 0) {
            return { 1, 0 };
        }
        if (r == 90) {
            return { 0, 1 };
        }
        if (r == 180) {
            return { -1, 0 };
        }
        if (r == 270) {
            return { 0, -1 };
        }
        const double a = degrees * pi / 180;
        return { std::cos(a), std::sin(a) };
    }

    /// R = Rx(rx) Ry(ry) Rz(rz) for angles in degrees.
    Eigen::Matrix3d rotation_degrees(const Eigen::Vector3d& angles)
    {
        const auto [cx, sx] = cos_sin_degrees(angles.x());
        const auto [cy, sy] = cos_sin_degrees(angles.y());
        const auto [cz, sz] = cos_sin_degrees(angles.z());
        Eigen::Matrix3d Rx, Ry, Rz;
        Rx << 1, 0, 0, 0, cx, -sx, 0, sx, cx;
        Ry << cy, 0, sy, 0, 1, 0, -sy, 0, cy;
        Rz << cz, -sz, 0, sz, cz, 0, 0, 0, 1;
        return Rx * Ry * Rz;
    }

    /// Applies "transform": p = R (s .* X) + t.
    void apply_transform(const Node& t, Eigen::MatrixXd& V)
    {
        t.check_object({ "scale", "rotation_degrees", "translation" });
        Eigen::Vector3d scale = Eigen::Vector3d::Ones();
        if (const auto s = t.find("scale")) {
            if (s->value().is_array()) {
                scale = s->vec3();
                for (int i = 0; i < 3; ++i) {
                    if (!(scale[i] > 0)) {
                        (*s)[std::size_t(i)].out_of_range("must be > 0");
                    }
                }
            } else {
                scale.setConstant(s->positive());
            }
        }
        const Eigen::Matrix3d R = rotation_degrees(vec3_or(t, "rotation_degrees", Eigen::Vector3d::Zero()));
        const Eigen::Vector3d shift = vec3_or(t, "translation", Eigen::Vector3d::Zero());
        for (Index i = 0; i < V.rows(); ++i) {
            const Eigen::Vector3d X = V.row(i).transpose();
            V.row(i) = (R * scale.cwiseProduct(X) + shift).transpose();
        }
    }

    /// A rod's vertices from segments that form one open polyline, in the
    /// order the segments walk it.
    Eigen::MatrixXd polyline_from(const Node& where, const Eigen::MatrixXd& V, const Eigen::MatrixXi& S)
    {
        if (S.rows() < 1) {
            where.fail("a rod needs at least one segment, but " + where.where() + " has none");
        }
        std::vector<int> order { S(0, 0) };
        std::vector<bool> used(std::size_t(V.rows()), false);
        used[std::size_t(S(0, 0))] = true;
        for (Index k = 0; k < S.rows(); ++k) {
            if (S(k, 0) != order.back() || used[std::size_t(S(k, 1))]) {
                where.fail("the segments of " + where.where()
                    + " must form a single polyline, each segment starting where the previous one ends"
                      " (segment "
                    + std::to_string(k) + " does not)");
            }
            used[std::size_t(S(k, 1))] = true;
            order.push_back(S(k, 1));
        }
        if (Index(order.size()) != V.rows()) {
            where.fail("the segments of " + where.where() + " use " + std::to_string(order.size()) + " of its "
                + std::to_string(V.rows()) + " vertices; a rod must use all of them");
        }
        Eigen::MatrixXd P(V.rows(), 3);
        for (std::size_t i = 0; i < order.size(); ++i) {
            P.row(Index(i)) = V.row(order[i]);
        }
        return P;
    }

    std::string lowercase(std::string s)
    {
        for (char& c : s) {
            c = char(std::tolower(static_cast<unsigned char>(c)));
        }
        return s;
    }

    /// Geometry from "mesh": a file of the kind the body type takes.
    Geometry load_mesh(const Node& mesh, Model::BodyKind kind, const std::filesystem::path& base_dir)
    {
        const std::string name = mesh.string();
        std::filesystem::path file(name);
        if (file.is_relative()) {
            file = base_dir / file;
        }
        const std::string ext = lowercase(file.extension().string());
        const auto need = [&](std::initializer_list<const char*> allowed) {
            if (std::none_of(allowed.begin(), allowed.end(), [&](const char* e) { return ext == e; })) {
                std::string list;
                for (const char* e : allowed) {
                    list += list.empty() ? "" : " or ";
                    list += e;
                }
                mesh.fail("a " + std::string(body_kind_name(kind)) + " mesh must be a " + list + " file, got \"" + name
                    + "\" at " + mesh.where());
            }
        };
        switch (kind) {
        case Model::BodyKind::shell:
        case Model::BodyKind::obstacle: need({ ".obj" }); break;
        case Model::BodyKind::volume: need({ ".msh" }); break;
        case Model::BodyKind::rod:
        case Model::BodyKind::obstacle_segments: need({ ".seg" }); break;
        default: need({ ".pt", ".obj" }); break;
        }
        Geometry g;
        try {
            if (kind == Model::BodyKind::shell || kind == Model::BodyKind::obstacle) {
                TriangleMesh m = read_obj(file.string());
                g.vertices = std::move(m.vertices);
                g.elements = std::move(m.faces);
            } else if (ext == ".msh") {
                TetMesh m = read_msh(file.string());
                g.vertices = std::move(m.vertices);
                g.elements = std::move(m.tets);
            } else if (ext == ".seg") {
                SegmentMesh m = read_seg(file.string());
                g.vertices = std::move(m.vertices);
                g.elements = std::move(m.segments);
            } else {
                g.vertices = read_points(file.string());
            }
        } catch (const std::exception& e) {
            mesh.fail("cannot read the mesh \"" + file.string() + "\" of " + mesh.where() + ": " + bare_message(e));
        }
        if (kind == Model::BodyKind::rod) {
            g.vertices = polyline_from(mesh, g.vertices, g.elements);
            g.elements.resize(0, 0);
        }
        return g;
    }

    ShellMaterial read_shell_material(const Node& m)
    {
        m.check_object({ "density", "thickness", "young", "membrane_scale", "bending_young", "poisson" });
        ShellMaterial s;
        s.density = positive_or(m, "density", s.density);
        s.thickness = positive_or(m, "thickness", s.thickness);
        s.membrane_young = positive_or(m, "young", s.membrane_young);
        s.membrane_scale = positive_or(m, "membrane_scale", s.membrane_scale);
        s.bending_young = nonnegative_or(m, "bending_young", s.bending_young);
        if (const auto p = m.find("poisson")) {
            s.poisson = p->number();
            if (!(s.poisson > -1 && s.poisson < 0.5)) {
                p->out_of_range("must lie in (-1, 0.5)");
            }
        }
        return s;
    }

    VolumeMaterial read_volume_material(const Node& m)
    {
        m.check_object({ "model", "density", "young", "poisson" });
        VolumeMaterial v;
        if (const auto model = m.find("model")) {
            const std::string name = model->string();
            try {
                v.model = volume_model_from_name(name);
            } catch (const ipc::error& e) {
                model->fail(model->where() + ": " + bare_message(e));
            }
        }
        v.density = positive_or(m, "density", v.density);
        v.young = positive_or(m, "young", v.young);
        if (const auto p = m.find("poisson")) {
            v.poisson = p->number();
            if (!(v.poisson > -1 && v.poisson < 0.5)) {
                p->out_of_range("must lie in (-1, 0.5)");
            }
        }
        return v;
    }

    RodMaterial read_rod_material(const Node& m)
    {
        m.check_object({ "density", "young", "radius" });
        RodMaterial r;
        r.density = positive_or(m, "density", r.density);
        r.young = positive_or(m, "young", r.young);
        r.radius = positive_or(m, "radius", r.radius);
        return r;
    }

    ParticleMaterial read_particle_material(const Node& m)
    {
        m.check_object({ "density", "radius" });
        ParticleMaterial p;
        p.density = positive_or(m, "density", p.density);
        p.radius = positive_or(m, "radius", p.radius);
        return p;
    }

    /// Reads body k and adds it to the model.
    BodyRange add_body(const Node& b, Model& model, double offset, const std::filesystem::path& base_dir)
    {
        if (!b.value().is_object()) {
            b.expected("an object");
        }
        const Node type = b.at("type");
        const std::string type_name = type.string();
        const auto found = std::find_if(
            body_kinds.begin(), body_kinds.end(), [&](const auto& entry) { return type_name == entry.first; });
        if (found == body_kinds.end()) {
            type.fail("unknown body type \"" + type_name + "\" at " + type.where()
                + " (expected shell, volume, rod, particles, obstacle, obstacle_segments or obstacle_points)");
        }
        const Model::BodyKind kind = found->second;
        const auto [elements, cols] = element_key(kind);
        if (is_obstacle(kind)) {
            if (elements) {
                b.check_object({ "type", "name", "mesh", "transform", "vertices", elements, "contact_radius",
                    "velocity", "velocities", "angular_velocity" });
            } else {
                b.check_object({ "type", "name", "mesh", "transform", "vertices", "contact_radius", "velocity",
                    "velocities", "angular_velocity" });
            }
        } else if (elements) {
            b.check_object({ "type", "name", "mesh", "transform", "vertices", elements, "material", "contact_radius",
                "velocity", "velocities", "angular_velocity" });
        } else {
            b.check_object({ "type", "name", "mesh", "transform", "vertices", "material", "contact_radius", "velocity",
                "velocities", "angular_velocity" });
        }
        if (const auto name = b.find("name")) {
            name->string();
        }

        // Geometry: a mesh file or inline arrays.
        Geometry g;
        const auto mesh = b.find("mesh");
        const auto vertices = b.find("vertices");
        if (mesh && vertices) {
            b.fail(b.where() + " gives both \"mesh\" and \"vertices\"; give one");
        }
        if (mesh) {
            if (elements && b.has(elements)) {
                b.fail(b.where() + " gives both \"mesh\" and \"" + elements + "\"; the elements come from the mesh");
            }
            g = load_mesh(*mesh, kind, base_dir);
        } else if (vertices) {
            g.vertices = read_points_array(*vertices, 3);
            if (elements) {
                g.elements = read_index_array(b.at(elements), cols, g.vertices.rows(), "body " + b.where());
            }
        } else {
            b.fail("missing required key " + b.sub("mesh") + " or " + b.sub("vertices"));
        }
        if (const auto t = b.find("transform")) {
            apply_transform(*t, g.vertices);
        }

        const double radius = nonnegative_or(b, "contact_radius", is_obstacle(kind) ? 0.0 : offset / 2);
        std::optional<Node> material = b.find("material");
        static const Doc empty_object = Doc::object();
        const Node m = material ? *material : Node(empty_object, b.sub("material"), b.source());
        BodyRange range { kind, model.num_vertices(), g.vertices.rows() };
        std::variant<std::monostate, ShellMaterial, VolumeMaterial, RodMaterial, ParticleMaterial> mat;
        switch (kind) {
        case Model::BodyKind::shell: mat = read_shell_material(m); break;
        case Model::BodyKind::volume: mat = read_volume_material(m); break;
        case Model::BodyKind::rod: mat = read_rod_material(m); break;
        case Model::BodyKind::particles: mat = read_particle_material(m); break;
        default: break;
        }
        try { // errors of the model (degenerate elements, bad indices) get the body's path
            switch (kind) {
            case Model::BodyKind::shell: model.add_shell(g.vertices, g.elements, std::get<ShellMaterial>(mat), radius); break;
            case Model::BodyKind::volume:
                model.add_volume(g.vertices, g.elements, std::get<VolumeMaterial>(mat), radius);
                break;
            case Model::BodyKind::rod: model.add_rod(g.vertices, std::get<RodMaterial>(mat), radius); break;
            case Model::BodyKind::particles:
                model.add_particles(g.vertices, std::get<ParticleMaterial>(mat), radius);
                break;
            case Model::BodyKind::obstacle: model.add_obstacle(g.vertices, g.elements, radius); break;
            case Model::BodyKind::obstacle_segments:
                model.add_obstacle_segments(g.vertices, g.elements, radius);
                break;
            case Model::BodyKind::obstacle_points: model.add_obstacle_points(g.vertices, radius); break;
            }
        } catch (const ipc::error& e) {
            b.fail(b.where() + ": " + bare_message(e));
        }

        // Initial velocity.
        const auto velocity = b.find("velocity");
        const auto velocities = b.find("velocities");
        if (velocity && velocities) {
            b.fail(b.where() + " gives both \"velocity\" and \"velocities\"; give one");
        }
        auto rows = model.velocities.middleRows(range.first, range.count);
        if (velocity) {
            rows.rowwise() = velocity->vec3().transpose();
        } else if (velocities) {
            if (velocities->size() != std::size_t(range.count)) {
                velocities->fail(velocities->where() + " has " + std::to_string(velocities->size())
                    + " velocities for " + std::to_string(range.count) + " vertices");
            }
            rows = read_points_array(*velocities, 3);
        }
        if (const auto w = b.find("angular_velocity")) {
            const Eigen::Vector3d omega = w->vec3();
            if (range.count > 0) {
                const auto P = model.positions.middleRows(range.first, range.count);
                const Eigen::Vector3d center = (P.colwise().minCoeff() + P.colwise().maxCoeff()).transpose() / 2;
                for (Index i = 0; i < range.count; ++i) {
                    const Eigen::Vector3d x = P.row(i).transpose();
                    rows.row(i) += omega.cross(x - center).transpose();
                }
            }
        }
        return range;
    }

    // -----------------------------------------------------------------------
    // Selections, motions, shapes

    /// The vertices (model indices) a fixed or scripted entry selects, in
    /// the order given (ascending for boxes and whole bodies).
    std::vector<Index> select_vertices(const Node& entry, const std::vector<BodyRange>& bodies, const Model& model)
    {
        std::optional<BodyRange> body;
        if (const auto b = entry.find("body")) {
            const long long k = b->integer();
            if (k < 0 || k >= (long long)bodies.size()) {
                b->fail("body " + std::to_string(k) + " at " + b->where() + " is out of range (the scene has "
                    + std::to_string(bodies.size()) + " bodies)");
            }
            body = bodies[std::size_t(k)];
        }
        const auto vertices = entry.find("vertices");
        const auto box = entry.find("box");
        if (vertices && box) {
            entry.fail(entry.where() + " gives both \"vertices\" and \"box\"; give one");
        }
        const Index first = body ? body->first : 0;
        const Index count = body ? body->count : model.num_vertices();
        std::vector<Index> selected;
        if (vertices) {
            const std::size_t n = vertices->size();
            selected.reserve(n);
            for (std::size_t i = 0; i < n; ++i) {
                const Node v = (*vertices)[i];
                const long long k = v.integer();
                if (k < 0 || k >= count) {
                    v.fail("vertex " + std::to_string(k) + " at " + v.where() + " is out of range for "
                        + (body ? "body " + std::to_string(entry.at("body").integer()) : std::string("the scene"))
                        + " (" + std::to_string(count) + " vertices)");
                }
                selected.push_back(first + Index(k));
            }
        } else if (box) {
            box->check_object({ "min", "max" });
            const Eigen::Vector3d lo = box->at("min").vec3(), hi = box->at("max").vec3();
            for (int i = 0; i < 3; ++i) {
                if (!(lo[i] <= hi[i])) {
                    box->fail(box->where() + ": min must not exceed max");
                }
            }
            for (Index v = first; v < first + count; ++v) {
                const Eigen::Vector3d p = model.positions.row(v).transpose();
                if ((p.array() >= lo.array()).all() && (p.array() <= hi.array()).all()) {
                    selected.push_back(v);
                }
            }
            if (selected.empty()) {
                box->fail("the box at " + box->where() + " contains no vertex");
            }
        } else if (body) {
            for (Index v = first; v < first + count; ++v) {
                selected.push_back(v);
            }
        } else {
            entry.fail("missing required key " + entry.sub("body") + ", " + entry.sub("vertices") + " or "
                + entry.sub("box"));
        }
        return selected;
    }

    ScriptedMotion read_motion(const Node& node)
    {
        ScriptedMotion motion;
        const std::size_t n = node.size();
        for (std::size_t k = 0; k < n; ++k) {
            const Node s = node[k];
            s.check_object({ "begin", "end", "velocity", "angular_velocity", "center" });
            MotionSegment segment;
            segment.begin = number_or(s, "begin", 0);
            if (const auto end = s.find_nonnull("end")) {
                segment.end = end->number();
            }
            if (!(segment.end > segment.begin)) {
                s.fail(s.where() + ": a motion segment needs begin < end, got [" + ipc::detail::concat(segment.begin) + ", "
                    + ipc::detail::concat(segment.end) + ")");
            }
            segment.velocity = vec3_or(s, "velocity", Eigen::Vector3d::Zero());
            segment.angular_velocity = vec3_or(s, "angular_velocity", Eigen::Vector3d::Zero());
            segment.center = vec3_or(s, "center", Eigen::Vector3d::Zero());
            motion.segments.push_back(segment);
        }
        return motion;
    }

    AnalyticObstacle read_shape(const Node& s)
    {
        if (!s.value().is_object()) {
            s.expected("an object");
        }
        const Node type = s.at("type");
        const std::string name = type.string();
        AnalyticObstacle a;
        if (name == "plane") {
            s.check_object({ "type", "point", "normal", "board_extent" });
            ipc::PlaneObstacle p; // fields as given: the normal need not have unit length
            p.point = s.at("point").vec3();
            p.normal = s.at("normal").vec3();
            a.shape = p;
        } else if (name == "sphere") {
            s.check_object({ "type", "center", "radius", "board_extent" });
            a.shape = ipc::SphereObstacle { s.at("center").vec3(), s.at("radius").number() };
        } else if (name == "box") {
            s.check_object({ "type", "center", "half_extents", "rounding", "board_extent" });
            a.shape = ipc::BoxObstacle { s.at("center").vec3(), s.at("half_extents").vec3(), number_or(s, "rounding", 0) };
        } else if (name == "capsule") {
            s.check_object({ "type", "a", "b", "radius", "board_extent" });
            a.shape = ipc::CapsuleObstacle { s.at("a").vec3(), s.at("b").vec3(), s.at("radius").number() };
        } else {
            type.fail("unknown shape type \"" + name + "\" at " + type.where() + " (expected plane, sphere, box or capsule)");
        }
        a.board_extent = positive_or(s, "board_extent", a.board_extent);
        try {
            std::visit([](const auto& shape) { ipc::check_obstacle(shape); }, a.shape);
        } catch (const ipc::error& e) {
            s.fail(s.where() + ": " + bare_message(e));
        }
        return a;
    }

    // -----------------------------------------------------------------------
    // Writing

    Out vec3_json(const Eigen::Vector3d& v) { return Out::array({ v[0], v[1], v[2] }); }

    Out rows_json(const Eigen::MatrixXd& V, Index first, Index count)
    {
        Out a = Out::array();
        for (Index i = first; i < first + count; ++i) {
            Out row = Out::array();
            for (Index j = 0; j < V.cols(); ++j) {
                row.push_back(V(i, j));
            }
            a.push_back(std::move(row));
        }
        return a;
    }

    Out rows_json(const Eigen::MatrixXi& E)
    {
        Out a = Out::array();
        for (Index i = 0; i < E.rows(); ++i) {
            Out row = Out::array();
            for (Index j = 0; j < E.cols(); ++j) {
                row.push_back(E(i, j));
            }
            a.push_back(std::move(row));
        }
        return a;
    }

    Out material_json(const Model::Body& body)
    {
        Out m = Out::object();
        const auto wrong = [&] {
            throw invalid_argument(ipc::detail::concat("scene_to_json: body at vertex ", body.first_vertex, " (",
                body_kind_name(body.kind), ") has a material of another kind"));
        };
        switch (body.kind) {
        case Model::BodyKind::shell: {
            const auto* s = std::get_if<ShellMaterial>(&body.material);
            if (!s) {
                wrong();
            }
            m["density"] = s->density;
            m["thickness"] = s->thickness;
            m["young"] = s->membrane_young;
            m["membrane_scale"] = s->membrane_scale;
            m["bending_young"] = s->bending_young;
            m["poisson"] = s->poisson;
            break;
        }
        case Model::BodyKind::volume: {
            const auto* v = std::get_if<VolumeMaterial>(&body.material);
            if (!v) {
                wrong();
            }
            m["model"] = volume_model_name(v->model);
            m["density"] = v->density;
            m["young"] = v->young;
            m["poisson"] = v->poisson;
            break;
        }
        case Model::BodyKind::rod: {
            const auto* r = std::get_if<RodMaterial>(&body.material);
            if (!r) {
                wrong();
            }
            m["density"] = r->density;
            m["young"] = r->young;
            m["radius"] = r->radius;
            break;
        }
        case Model::BodyKind::particles: {
            const auto* p = std::get_if<ParticleMaterial>(&body.material);
            if (!p) {
                wrong();
            }
            m["density"] = p->density;
            m["radius"] = p->radius;
            break;
        }
        default: break;
        }
        return m;
    }

    Out motion_json(const ScriptedMotion& motion)
    {
        Out segments = Out::array();
        for (const MotionSegment& s : motion.segments) {
            Out j = Out::object();
            j["begin"] = s.begin;
            if (std::isfinite(s.end)) {
                j["end"] = s.end;
            }
            j["velocity"] = vec3_json(s.velocity);
            j["angular_velocity"] = vec3_json(s.angular_velocity);
            j["center"] = vec3_json(s.center);
            segments.push_back(std::move(j));
        }
        return segments;
    }

    Out shape_json(const AnalyticObstacle& a)
    {
        Out j = Out::object();
        std::visit(
            [&](const auto& s) {
                using S = std::decay_t<decltype(s)>;
                j["type"] = ipc::obstacle_name(s);
                if constexpr (std::is_same_v<S, ipc::PlaneObstacle>) {
                    j["point"] = vec3_json(s.point);
                    j["normal"] = vec3_json(s.normal);
                } else if constexpr (std::is_same_v<S, ipc::SphereObstacle>) {
                    j["center"] = vec3_json(s.center);
                    j["radius"] = s.radius;
                } else if constexpr (std::is_same_v<S, ipc::BoxObstacle>) {
                    j["center"] = vec3_json(s.center);
                    j["half_extents"] = vec3_json(s.half_extents);
                    j["rounding"] = s.rounding;
                } else {
                    j["a"] = vec3_json(s.a);
                    j["b"] = vec3_json(s.b);
                    j["radius"] = s.radius;
                }
            },
            a.shape);
        j["board_extent"] = a.board_extent;
        return j;
    }

    /// True when an array holds no arrays or objects (written on one line).
    bool is_flat(const Out& v)
    {
        return v.is_array() && std::none_of(v.begin(), v.end(), [](const Out& e) { return e.is_structured(); });
    }

    /// JSON text with objects and nested arrays indented and flat arrays
    /// (vectors, vertex rows, index lists) on one line.
    void write_pretty(std::ostream& out, const Out& v, int depth)
    {
        const std::string pad(std::size_t(2 * (depth + 1)), ' '), close(std::size_t(2 * depth), ' ');
        if (v.is_object() && !v.empty()) {
            out << "{\n";
            std::size_t i = 0;
            for (const auto& item : v.items()) {
                out << pad << Out(item.key()).dump() << ": ";
                write_pretty(out, item.value(), depth + 1);
                out << (++i < v.size() ? ",\n" : "\n");
            }
            out << close << '}';
        } else if (v.is_array() && !v.empty() && !is_flat(v)) {
            out << "[\n";
            for (std::size_t i = 0; i < v.size(); ++i) {
                out << pad;
                write_pretty(out, v[i], depth + 1);
                out << (i + 1 < v.size() ? ",\n" : "\n");
            }
            out << close << ']';
        } else if (v.is_array() && !v.empty()) {
            out << '[';
            for (std::size_t i = 0; i < v.size(); ++i) {
                out << (i ? ", " : "") << v[i].dump();
            }
            out << ']';
        } else {
            out << v.dump();
        }
    }

} // namespace

// ---------------------------------------------------------------------------

Scene scene_from_json(const nlohmann::json& doc, const std::string& source, const std::filesystem::path& base_dir)
{
    const Node root(doc, "", source);
    root.check_object({ "format", "version", "name", "description", "frames", "physics", "offset", "gravity", "camera",
        "shell_opacity", "bodies", "fixed", "scripted", "release", "shapes", "obstacles" });
    {
        const Node format = root.at("format");
        if (format.string() != format_name) {
            format.expected("\"" + std::string(format_name) + "\"");
        }
        const Node version = root.at("version");
        if (version.integer() != format_version) {
            version.fail("unsupported version " + describe(version.value()) + " at /version (this program reads version "
                + std::to_string(format_version) + ")");
        }
    }

    Scene scene;
    scene.name = string_or(root, "name", std::filesystem::path(source).stem().string());
    scene.description = string_or(root, "description", "");
    if (const auto frames = root.find("frames")) {
        const long long f = frames->integer();
        if (f < 1) {
            frames->out_of_range("must be >= 1");
        }
        scene.frames = int(f);
    }

    if (const auto p = root.find("physics")) {
        p->check_object({ "dt", "contact_gap", "friction", "eps_v", "strain_limit", "newton_tolerance", "termination",
            "barrier_stiffness", "friction_iterations" });
        ScenePhysics& ph = scene.physics;
        ph.dt = positive_or(*p, "dt", ph.dt);
        ph.contact_gap = positive_or(*p, "contact_gap", ph.contact_gap);
        ph.friction = nonnegative_or(*p, "friction", ph.friction);
        ph.eps_v = positive_or(*p, "eps_v", ph.eps_v);
        if (const auto s = p->find_nonnull("strain_limit")) {
            ph.strain_limit = s->number();
            if (!(*ph.strain_limit > 1)) {
                s->out_of_range("must be > 1");
            }
        }
        if (const auto t = p->find_nonnull("newton_tolerance")) {
            ph.newton_tolerance = t->positive();
        }
        if (const auto t = p->find_nonnull("termination")) {
            const std::string rule = t->string();
            if (rule != "residual" && rule != "toi" && rule != "max_norm") {
                t->expected("\"residual\", \"toi\" or \"max_norm\"");
            }
            ph.termination = rule;
        }
        if (const auto k = p->find_nonnull("barrier_stiffness")) {
            ph.barrier_stiffness = k->positive();
        }
        if (const auto f = p->find("friction_iterations")) {
            const long long n = f->integer();
            if (n < 0) {
                f->out_of_range("must be >= 0");
            }
            ph.friction_iterations = int(n);
        }
    }
    scene.offset = nonnegative_or(root, "offset", scene.offset);
    scene.model.gravity = vec3_or(root, "gravity", scene.model.gravity);
    if (const auto camera = root.find("camera")) {
        camera->check_object({ "eye", "target" });
        scene.eye = vec3_or(*camera, "eye", scene.eye);
        scene.target = vec3_or(*camera, "target", scene.target);
    }
    if (const auto opacity = root.find("shell_opacity")) {
        scene.shell_opacity = opacity->number();
        if (!(scene.shell_opacity >= 0 && scene.shell_opacity <= 1)) {
            opacity->out_of_range("must lie in [0, 1]");
        }
    }

    // Bodies, then the selections that refer to them.
    Model& model = scene.model;
    std::vector<BodyRange> bodies;
    const Node body_list = root.at("bodies");
    for (std::size_t k = 0; k < body_list.size(); ++k) {
        bodies.push_back(add_body(body_list[k], model, scene.offset, base_dir));
    }
    if (const auto fixed = root.find("fixed")) {
        for (std::size_t k = 0; k < fixed->size(); ++k) {
            const Node entry = (*fixed)[k];
            entry.check_object({ "body", "vertices", "box" });
            for (const Index v : select_vertices(entry, bodies, model)) {
                model.fix(v);
            }
        }
    }
    if (const auto scripted = root.find("scripted")) {
        for (std::size_t k = 0; k < scripted->size(); ++k) {
            const Node entry = (*scripted)[k];
            entry.check_object({ "body", "vertices", "box", "motion" });
            const ScriptedMotion motion = read_motion(entry.at("motion"));
            for (const Index v : select_vertices(entry, bodies, model)) {
                try {
                    model.script(v, motion);
                } catch (const ipc::error& e) {
                    entry.fail(entry.sub("motion") + ": " + bare_message(e));
                }
            }
        }
    }
    if (const auto release = root.find_nonnull("release")) {
        release->check_object({ "axis", "above" });
        const Node axis = release->at("axis");
        const std::string name = axis.string();
        const auto it = std::find(axis_names.begin(), axis_names.end(), name);
        if (it == axis_names.end()) {
            axis.expected("\"x\", \"y\" or \"z\"");
        }
        model.release = Model::Release { int(it - axis_names.begin()), release->at("above").number() };
    }
    if (const auto shapes = root.find("shapes")) {
        for (std::size_t k = 0; k < shapes->size(); ++k) {
            scene.shapes.push_back(read_shape((*shapes)[k]));
        }
    }
    if (const auto obstacles = root.find("obstacles")) {
        for (std::size_t k = 0; k < obstacles->size(); ++k) {
            const AnalyticObstacle a = read_shape((*obstacles)[k]);
            model.add_analytic_obstacle(a.shape, a.board_extent);
        }
    }

    bool intersecting = false;
    try {
        intersecting = model.num_vertices() > 0 && ipc::has_intersections(model.collision_mesh(), model.positions);
    } catch (const ipc::error& e) {
        root.fail("cannot check the initial configuration: " + bare_message(e));
    }
    if (intersecting) {
        root.fail("the bodies intersect in the initial configuration");
    }
    return scene;
}

Scene read_scene_file(const std::string& path)
{
    std::ifstream file(path);
    if (!file) {
        throw invalid_argument("cannot open the scene file " + path);
    }
    Doc doc;
    try {
        doc = Doc::parse(file);
    } catch (const nlohmann::json::exception& e) {
        throw invalid_argument(path + ": not a valid JSON document: " + e.what());
    }
    std::filesystem::path base = std::filesystem::path(path).parent_path();
    if (base.empty()) {
        base = ".";
    }
    return scene_from_json(doc, path, base);
}

nlohmann::ordered_json scene_to_json(const Scene& scene)
{
    const Model& model = scene.model;
    Out doc = Out::object();
    doc["format"] = format_name;
    doc["version"] = format_version;
    doc["name"] = scene.name;
    doc["description"] = scene.description;
    doc["frames"] = scene.frames;

    const ScenePhysics& ph = scene.physics;
    Out physics = Out::object();
    physics["dt"] = ph.dt;
    physics["contact_gap"] = ph.contact_gap;
    physics["friction"] = ph.friction;
    physics["eps_v"] = ph.eps_v;
    if (ph.strain_limit) {
        physics["strain_limit"] = *ph.strain_limit;
    }
    if (ph.newton_tolerance) {
        physics["newton_tolerance"] = *ph.newton_tolerance;
    }
    if (ph.termination) {
        physics["termination"] = *ph.termination;
    }
    if (ph.barrier_stiffness) {
        physics["barrier_stiffness"] = *ph.barrier_stiffness;
    }
    physics["friction_iterations"] = ph.friction_iterations;
    doc["physics"] = std::move(physics);
    doc["offset"] = scene.offset;
    doc["gravity"] = vec3_json(model.gravity);
    doc["camera"] = { { "eye", vec3_json(scene.eye) }, { "target", vec3_json(scene.target) } };
    doc["shell_opacity"] = scene.shell_opacity;

    Out bodies = Out::array();
    Index next = 0;
    for (const Model::Body& body : model.bodies) {
        require(body.first_vertex == next && body.num_vertices >= 0 && next + body.num_vertices <= model.num_vertices(),
            "scene_to_json: the model's body records do not cover its vertices in order (a body starts at vertex ",
            body.first_vertex, ", expected ", next, ")");
        Out b = Out::object();
        b["type"] = body_kind_name(body.kind);
        b["vertices"] = rows_json(model.positions, body.first_vertex, body.num_vertices);
        if (const auto [key, cols] = element_key(body.kind); key) {
            b[key] = rows_json(body.elements);
        }
        if (!is_obstacle(body.kind)) {
            b["material"] = material_json(body);
        }
        b["contact_radius"] = body.contact_radius;
        const auto v = model.velocities.middleRows(body.first_vertex, body.num_vertices);
        if (body.num_vertices > 0 && !(v.array() == 0).all()) {
            bool uniform = true;
            for (Index i = 1; i < v.rows() && uniform; ++i) {
                uniform = v.row(i) == v.row(0);
            }
            if (uniform) {
                b["velocity"] = vec3_json(v.row(0).transpose());
            } else {
                b["velocities"] = rows_json(model.velocities, body.first_vertex, body.num_vertices);
            }
        }
        bodies.push_back(std::move(b));
        next += body.num_vertices;
    }
    require(next == model.num_vertices(), "scene_to_json: the model's body records cover ", next, " of its ",
        model.num_vertices(), " vertices");
    doc["bodies"] = std::move(bodies);

    Out fixed_vertices = Out::array();
    for (Index v = 0; v < model.num_vertices(); ++v) {
        if (model.fixed[std::size_t(v)] && model.kind[std::size_t(v)] != VertexKind::obstacle) {
            fixed_vertices.push_back(v);
        }
    }
    doc["fixed"] = Out::array();
    if (!fixed_vertices.empty()) {
        doc["fixed"].push_back({ { "vertices", std::move(fixed_vertices) } });
    }

    // Scripted vertices in their order, runs with the same motion together.
    Out scripted = Out::array();
    for (std::size_t k = 0; k < model.scripted.size();) {
        std::size_t end = k + 1;
        while (end < model.scripted.size() && model.scripted[end].motion == model.scripted[k].motion) {
            ++end;
        }
        Out vertices = Out::array();
        for (std::size_t i = k; i < end; ++i) {
            vertices.push_back(model.scripted[i].vertex);
        }
        scripted.push_back({ { "vertices", std::move(vertices) }, { "motion", motion_json(model.scripted[k].motion) } });
        k = end;
    }
    doc["scripted"] = std::move(scripted);
    if (model.release) {
        require(model.release->axis >= 0 && model.release->axis < 3, "scene_to_json: release axis ",
            model.release->axis, " is not 0, 1 or 2");
        doc["release"] = { { "axis", axis_names[std::size_t(model.release->axis)] }, { "above", model.release->above } };
    }
    Out shapes = Out::array();
    for (const AnalyticObstacle& a : scene.shapes) {
        shapes.push_back(shape_json(a));
    }
    doc["shapes"] = std::move(shapes);
    Out obstacles = Out::array();
    for (const AnalyticObstacle& a : model.analytic_obstacles) {
        obstacles.push_back(shape_json(a));
    }
    doc["obstacles"] = std::move(obstacles);
    return doc;
}

void write_scene_file(const Scene& scene, const std::string& path)
{
    const Out doc = scene_to_json(scene);
    const std::filesystem::path p(path);
    if (p.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(p.parent_path(), ec);
        require(!ec, "cannot create the folder of the scene file ", path, ": ", ec.message());
    }
    std::ofstream file(path);
    require(bool(file), "cannot open the scene file ", path, " for writing");
    write_pretty(file, doc, 0);
    file << '\n';
    file.close();
    require(!file.fail(), "failed writing the scene file ", path);
}

} // namespace ipc::examples
