#pragma once
/// @file
/// Readers for the mesh files of scene descriptions: Wavefront OBJ triangle
/// meshes, Gmsh tetrahedral meshes (MSH 4.1 and 2.2, ASCII), the IPC
/// segment format (.seg) and point files (.pt, OBJ syntax), plus the
/// outward boundary faces of a tetrahedral mesh.
///
/// Every problem (a missing file, a malformed number, an index out of range,
/// NaN or infinite coordinates, an empty mesh) throws ipc::invalid_argument
/// with a message that names the file, the line where there is one and what
/// was expected.

#include "scene_builders.hpp"

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ipc::examples {

/// Segments: vertices (n x 3) and segments (m x 2, zero-based).
struct SegmentMesh {
    Eigen::MatrixXd vertices;
    Eigen::MatrixXi segments;
};

namespace mesh_files_detail {

    /// Splits a line at white space.
    inline std::vector<std::string> split(const std::string& line)
    {
        std::vector<std::string> tokens;
        std::istringstream stream(line);
        std::string token;
        while (stream >> token) {
            tokens.push_back(token);
        }
        return tokens;
    }

    /// Opens path for reading or throws "cannot open mesh file PATH".
    inline std::ifstream open(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        require(in.is_open(), "cannot open mesh file ", path);
        return in;
    }

    /// Reads all lines (without a trailing '\r').
    inline std::vector<std::string> read_lines(const std::string& path)
    {
        std::ifstream in = open(path);
        std::vector<std::string> lines;
        std::string line;
        while (std::getline(in, line)) {
            if (!line.empty() && line.back() == '\r') {
                line.pop_back();
            }
            lines.push_back(line);
        }
        return lines;
    }

    /// Parses a whole token as a finite double; throws naming file and line.
    inline double to_double(const std::string& token, const std::string& path, std::size_t line, const char* what)
    {
        const char* begin = token.c_str();
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(begin, &end);
        require(!token.empty() && end == begin + token.size(), path, ":", line, ": expected a number for ", what,
            ", got '", token, "'");
        require(std::isfinite(value), path, ":", line, ": ", what, " must be finite, got '", token, "'");
        return value;
    }

    /// Parses a whole token as an integer; throws naming file and line.
    inline long long to_integer(const std::string& token, const std::string& path, std::size_t line, const char* what)
    {
        const char* begin = token.c_str();
        char* end = nullptr;
        errno = 0;
        const long long value = std::strtoll(begin, &end, 10);
        require(!token.empty() && end == begin + token.size() && errno == 0, path, ":", line,
            ": expected an integer for ", what, ", got '", token, "'");
        return value;
    }

    /// Reads "v x y z" from tokens (already known to start with "v").
    inline Eigen::RowVector3d vertex(const std::vector<std::string>& t, const std::string& path, std::size_t line)
    {
        require(t.size() >= 4, path, ":", line, ": a vertex line needs 'v x y z', got ", t.size() - 1,
            " coordinate(s)");
        return { to_double(t[1], path, line, "a vertex coordinate"), to_double(t[2], path, line, "a vertex coordinate"),
            to_double(t[3], path, line, "a vertex coordinate") };
    }

    /// Turns a list of rows into a matrix.
    template <typename Matrix, typename Row> Matrix stack(const std::vector<Row>& rows, Eigen::Index cols)
    {
        Matrix m(Eigen::Index(rows.size()), cols);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            m.row(Eigen::Index(i)) = rows[i];
        }
        return m;
    }

    /// One OBJ face corner index ("i", "i/j", "i/j/k", "i//k"), resolved to
    /// a zero-based index (negative indices count back from the vertices read
    /// so far). The range is checked by the caller.
    inline long long obj_index(const std::string& token, long long vertices_so_far, const std::string& path,
        std::size_t line)
    {
        const std::string number = token.substr(0, token.find('/'));
        const long long i = to_integer(number, path, line, "a face vertex index");
        require(i != 0, path, ":", line, ": face vertex index 0 is invalid (OBJ indices start at 1)");
        return i > 0 ? i - 1 : vertices_so_far + i;
    }

    /// Stores a resolved (zero-based) index as int, checking the range.
    inline int checked_index(long long i, long long n, const std::string& path, std::size_t line, const char* what)
    {
        require(i >= 0 && i < n, path, ":", line, ": ", what, " refers to vertex ", i + 1,
            " (1-based) but the file has ", n, " vertices");
        return int(i);
    }

    /// Number of nodes of Gmsh element type t (0 when unknown).
    inline int gmsh_nodes(long long t)
    {
        static const int table[] = { 0, 2, 3, 4, 4, 8, 6, 5, 3, 6, 9, 10, 27, 18, 14, 1, 8, 20, 15, 13, 9, 10, 12,
            15, 15, 21, 4, 5, 6, 20, 35, 56 };
        return t >= 0 && t < (long long)(sizeof(table) / sizeof(table[0])) ? table[t] : 0;
    }

    /// A token stream over a file that knows the line of each token.
    class Tokens {
    public:
        Tokens(std::vector<std::string> lines, std::string path)
            : lines_(std::move(lines))
            , path_(std::move(path))
        {
        }

        /// True when no token is left.
        bool done()
        {
            fill();
            return pos_ >= current_.size() && line_ >= lines_.size();
        }

        /// The next token; throws at end of file, saying what was expected.
        std::string next(const char* what)
        {
            fill();
            require(pos_ < current_.size(), path_, ":", lines_.size(), ": unexpected end of file, expected ", what);
            return current_[pos_++];
        }

        double real(const char* what) { return to_double(next(what), path_, line(), what); }
        long long integer(const char* what) { return to_integer(next(what), path_, line(), what); }

        /// Line (1-based) of the token returned last.
        std::size_t line() const { return line_; }

        /// Drops what is left of the current line.
        void skip_line() { pos_ = current_.size(); }

        /// Skips tokens up to and including end (a section end marker).
        void skip_section(const std::string& name)
        {
            const std::string end = "$End" + name;
            while (true) {
                fill();
                require(pos_ < current_.size(), path_, ": section $", name, " has no ", end);
                if (current_[pos_++] == end) {
                    return;
                }
            }
        }

        const std::string& path() const { return path_; }

    private:
        void fill()
        {
            while (pos_ >= current_.size() && line_ < lines_.size()) {
                current_ = split(lines_[line_]);
                ++line_;
                pos_ = 0;
            }
        }

        std::vector<std::string> lines_;
        std::string path_;
        std::vector<std::string> current_;
        std::size_t line_ = 0; // lines consumed: the current line is line_ (1-based)
        std::size_t pos_ = 0;
    };

} // namespace mesh_files_detail

/// Reads a Wavefront OBJ triangle mesh: "v x y z" and "f i j k ..." lines
/// (1-based indices, "i/j/k" tokens, negative relative indices; polygons are
/// fan-triangulated). Other statements (#, g, s, o, vn, vt, usemtl, mtllib,
/// l, ...) are ignored. Throws ipc::invalid_argument for a missing file, a
/// malformed line, an index out of range or a file without faces.
inline TriangleMesh read_obj(const std::string& path)
{
    using namespace mesh_files_detail;
    const std::vector<std::string> lines = read_lines(path);
    std::vector<Eigen::RowVector3d> V;
    std::vector<Eigen::RowVector3i> F;
    std::vector<std::pair<std::size_t, std::vector<long long>>> polygons;
    for (std::size_t l = 0; l < lines.size(); ++l) {
        const auto t = split(lines[l]);
        if (t.empty()) {
            continue;
        }
        if (t[0] == "v") {
            V.push_back(vertex(t, path, l + 1));
        } else if (t[0] == "f") {
            require(t.size() >= 4, path, ":", l + 1, ": a face needs at least 3 vertex indices, got ", t.size() - 1);
            std::vector<long long> corners;
            for (std::size_t k = 1; k < t.size(); ++k) {
                corners.push_back(obj_index(t[k], (long long)V.size(), path, l + 1));
            }
            polygons.emplace_back(l + 1, std::move(corners));
        }
    }
    require(!V.empty(), path, ": empty OBJ file: no vertices ('v x y z' lines)");
    require(!polygons.empty(), path, ": OBJ file has no faces ('f i j k' lines)");
    const long long n = (long long)V.size();
    for (const auto& [line, c] : polygons) {
        for (std::size_t k = 1; k + 1 < c.size(); ++k) {
            F.emplace_back(checked_index(c[0], n, path, line, "face"), checked_index(c[k], n, path, line, "face"),
                checked_index(c[k + 1], n, path, line, "face"));
        }
    }
    return { stack<Eigen::MatrixXd>(V, 3), stack<Eigen::MatrixXi>(F, 3) };
}

/// Reads the vertices of a point file (OBJ syntax; only "v" lines are used).
inline Eigen::MatrixXd read_points(const std::string& path)
{
    using namespace mesh_files_detail;
    const std::vector<std::string> lines = read_lines(path);
    std::vector<Eigen::RowVector3d> V;
    for (std::size_t l = 0; l < lines.size(); ++l) {
        const auto t = split(lines[l]);
        if (!t.empty() && t[0] == "v") {
            V.push_back(vertex(t, path, l + 1));
        }
    }
    require(!V.empty(), path, ": empty point file: no vertices ('v x y z' lines)");
    return stack<Eigen::MatrixXd>(V, 3);
}

/// Reads an IPC segment file: "v x y z" and "s i j" lines (1-based).
inline SegmentMesh read_seg(const std::string& path)
{
    using namespace mesh_files_detail;
    const std::vector<std::string> lines = read_lines(path);
    std::vector<Eigen::RowVector3d> V;
    std::vector<std::pair<std::size_t, std::array<long long, 2>>> S;
    for (std::size_t l = 0; l < lines.size(); ++l) {
        const auto t = split(lines[l]);
        if (t.empty()) {
            continue;
        }
        if (t[0] == "v") {
            V.push_back(vertex(t, path, l + 1));
        } else if (t[0] == "s") {
            require(t.size() >= 3, path, ":", l + 1, ": a segment line needs 's i j', got ", t.size() - 1,
                " index(es)");
            S.push_back({ l + 1,
                { to_integer(t[1], path, l + 1, "a segment vertex index") - 1,
                    to_integer(t[2], path, l + 1, "a segment vertex index") - 1 } });
        }
    }
    require(!V.empty(), path, ": empty segment file: no vertices ('v x y z' lines)");
    require(!S.empty(), path, ": segment file has no segments ('s i j' lines)");
    SegmentMesh mesh;
    mesh.vertices = stack<Eigen::MatrixXd>(V, 3);
    mesh.segments.resize(Eigen::Index(S.size()), 2);
    for (std::size_t i = 0; i < S.size(); ++i) {
        for (int k = 0; k < 2; ++k) {
            mesh.segments(Eigen::Index(i), k)
                = checked_index(S[i].second[std::size_t(k)], (long long)V.size(), path, S[i].first, "segment");
        }
    }
    return mesh;
}

/// Reads a Gmsh tetrahedral mesh, MSH 4.1 or 2.2 ASCII: the nodes (any tags)
/// and the 4-node tetrahedra (type 4); other element types and unknown
/// sections (such as IPC's $Surface) are skipped. Binary files and other
/// versions are rejected.
inline TetMesh read_msh(const std::string& path)
{
    using namespace mesh_files_detail;
    Tokens in(read_lines(path), path);
    double version = 0;
    std::vector<Eigen::RowVector3d> V;
    std::unordered_map<long long, int> row_of_tag;
    std::vector<std::array<long long, 4>> tet_tags;
    std::vector<std::size_t> tet_lines;
    bool have_format = false;

    const auto add_node = [&](long long tag, const Eigen::RowVector3d& x) {
        require(row_of_tag.emplace(tag, int(V.size())).second, path, ":", in.line(), ": node tag ", tag,
            " appears twice");
        V.push_back(x);
    };
    const auto read_xyz = [&]() -> Eigen::RowVector3d {
        const double x = in.real("a node coordinate");
        const double y = in.real("a node coordinate");
        const double z = in.real("a node coordinate");
        return { x, y, z };
    };

    while (!in.done()) {
        const std::string section = in.next("a section");
        require(section.size() > 1 && section[0] == '$', path, ":", in.line(), ": expected a section such as $Nodes, got '",
            section, "'");
        const std::string name = section.substr(1);
        if (name == "MeshFormat") {
            const std::string v = in.next("the MSH version");
            version = to_double(v, path, in.line(), "the MSH version");
            const long long file_type = in.integer("the MSH file type (0 for ASCII)");
            require(file_type == 0, path, ":", in.line(), ": binary MSH files are not supported (file type ",
                file_type, "); save the mesh as ASCII MSH 4.1 or 2.2");
            require(version == 4.1 || version == 2.2, path, ":", in.line(), ": MSH version ", v,
                " is not supported (expected 4.1 or 2.2 ASCII)");
            in.skip_section(name); // data size, then $EndMeshFormat
            have_format = true;
        } else if (name == "Nodes") {
            require(have_format, path, ":", in.line(), ": $Nodes before $MeshFormat");
            if (version == 4.1) {
                const long long blocks = in.integer("the number of node blocks");
                in.integer("the number of nodes");
                in.integer("the minimum node tag");
                in.integer("the maximum node tag");
                for (long long b = 0; b < blocks; ++b) {
                    in.integer("a node block's entity dimension");
                    in.integer("a node block's entity tag");
                    const long long parametric = in.integer("a node block's parametric flag");
                    const long long count = in.integer("a node block's node count");
                    require(parametric == 0, path, ":", in.line(), ": parametric node blocks are not supported");
                    require(count >= 0, path, ":", in.line(), ": negative node count ", count);
                    std::vector<long long> tags(std::size_t(count), 0);
                    for (auto& tag : tags) {
                        tag = in.integer("a node tag");
                    }
                    for (const long long tag : tags) {
                        add_node(tag, read_xyz());
                    }
                }
            } else {
                const long long count = in.integer("the number of nodes");
                for (long long k = 0; k < count; ++k) {
                    const long long tag = in.integer("a node tag");
                    add_node(tag, read_xyz());
                }
            }
            require(in.next("$EndNodes") == "$EndNodes", path, ":", in.line(), ": expected $EndNodes");
        } else if (name == "Elements") {
            require(have_format, path, ":", in.line(), ": $Elements before $MeshFormat");
            if (version == 4.1) {
                const long long blocks = in.integer("the number of element blocks");
                in.integer("the number of elements");
                in.integer("the minimum element tag");
                in.integer("the maximum element tag");
                for (long long b = 0; b < blocks; ++b) {
                    in.integer("an element block's entity dimension");
                    in.integer("an element block's entity tag");
                    const long long type = in.integer("an element type");
                    const long long count = in.integer("an element block's element count");
                    const int nodes = gmsh_nodes(type);
                    require(nodes > 0, path, ":", in.line(), ": unknown Gmsh element type ", type);
                    for (long long e = 0; e < count; ++e) {
                        in.integer("an element tag");
                        std::array<long long, 4> tet {};
                        for (int k = 0; k < nodes; ++k) {
                            const long long tag = in.integer("an element node tag");
                            if (type == 4) {
                                tet[std::size_t(k)] = tag;
                            }
                        }
                        if (type == 4) {
                            tet_tags.push_back(tet);
                            tet_lines.push_back(in.line());
                        }
                    }
                }
            } else {
                const long long count = in.integer("the number of elements");
                for (long long e = 0; e < count; ++e) {
                    in.integer("an element tag");
                    const long long type = in.integer("an element type");
                    const long long ntags = in.integer("the number of element tags");
                    for (long long k = 0; k < ntags; ++k) {
                        in.integer("an element tag value");
                    }
                    const int nodes = gmsh_nodes(type);
                    require(nodes > 0, path, ":", in.line(), ": unknown Gmsh element type ", type);
                    std::array<long long, 4> tet {};
                    for (int k = 0; k < nodes; ++k) {
                        const long long tag = in.integer("an element node tag");
                        if (type == 4) {
                            tet[std::size_t(k)] = tag;
                        }
                    }
                    if (type == 4) {
                        tet_tags.push_back(tet);
                        tet_lines.push_back(in.line());
                    }
                }
            }
            require(in.next("$EndElements") == "$EndElements", path, ":", in.line(), ": expected $EndElements");
        } else {
            in.skip_section(name); // $Surface and anything else
        }
    }
    require(have_format, path, ": not a Gmsh MSH file (no $MeshFormat section)");
    require(!V.empty(), path, ": the mesh has no nodes");
    require(!tet_tags.empty(), path, ": the mesh has no tetrahedra (type-4 elements)");
    TetMesh mesh;
    mesh.vertices = stack<Eigen::MatrixXd>(V, 3);
    mesh.tets.resize(Eigen::Index(tet_tags.size()), 4);
    for (std::size_t t = 0; t < tet_tags.size(); ++t) {
        for (int k = 0; k < 4; ++k) {
            const auto it = row_of_tag.find(tet_tags[t][std::size_t(k)]);
            require(it != row_of_tag.end(), path, ":", tet_lines[t], ": tetrahedron refers to node tag ",
                tet_tags[t][std::size_t(k)], ", which is not among the ", V.size(), " nodes");
            mesh.tets(Eigen::Index(t), k) = it->second;
        }
    }
    return mesh;
}

/// The boundary triangles of a tetrahedral mesh: for each tetrahedron
/// (a, b, c, d) its faces (a,c,b), (a,d,c), (a,b,d), (b,c,d), keeping those
/// that no tetrahedron holds in the reverse order. For positively oriented
/// tetrahedra the faces point outwards.
inline Eigen::MatrixXi boundary_faces(const Eigen::MatrixXi& tets)
{
    require(tets.cols() == 4 || tets.rows() == 0, "boundary_faces: tetrahedra need 4 columns, got ", tets.cols());
    // Key: the sorted triple; value: number of faces seen with even and with
    // odd permutation parity relative to the sorted order.
    std::map<std::array<int, 3>, std::array<int, 2>> count;
    std::vector<std::array<int, 3>> faces;
    const auto key = [](std::array<int, 3> f, int& parity) {
        parity = 0;
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2 - i; ++j) {
                if (f[std::size_t(j)] > f[std::size_t(j + 1)]) {
                    std::swap(f[std::size_t(j)], f[std::size_t(j + 1)]);
                    parity ^= 1;
                }
            }
        }
        return f;
    };
    for (Eigen::Index t = 0; t < tets.rows(); ++t) {
        const int a = tets(t, 0), b = tets(t, 1), c = tets(t, 2), d = tets(t, 3);
        for (const std::array<int, 3>& f : { std::array<int, 3> { a, c, b }, std::array<int, 3> { a, d, c },
                 std::array<int, 3> { a, b, d }, std::array<int, 3> { b, c, d } }) {
            int parity = 0;
            const auto k = key(f, parity);
            ++count[k][std::size_t(parity)];
            faces.push_back(f);
        }
    }
    std::vector<Eigen::RowVector3i> boundary;
    for (const auto& f : faces) {
        int parity = 0;
        const auto k = key(f, parity);
        if (count[k][std::size_t(parity ^ 1)] == 0) {
            boundary.emplace_back(f[0], f[1], f[2]);
        }
    }
    return mesh_files_detail::stack<Eigen::MatrixXi>(boundary, 3);
}

} // namespace ipc::examples
