#include <catch2/catch.hpp>

#include <common/bitmap_font.hpp>
#include <common/frame_output.hpp>
#include <common/json_output.hpp>
#include <common/mesh_files.hpp>
#include <common/newton_linear_solver.hpp>
#include <common/png_output.hpp>
#include <common/rasterizer.hpp>
#include <common/scene_builders.hpp>
#include <common/sparse_assembly.hpp>

#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include <Eigen/Dense>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>

using namespace ipc::examples;

namespace {

/// A fresh, empty folder under the system's temporary folder.
std::filesystem::path fresh_folder(const std::string& name)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path()
        / ("ipc_examples_" + name + "_" + std::to_string(std::random_device {}()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

/// Pixel (x, y) of an RGB image as a colour.
Color pixel(const std::vector<unsigned char>& rgb, int width, int x, int y)
{
    const std::size_t i = 3 * (std::size_t(y) * std::size_t(width) + std::size_t(x));
    return { rgb[i], rgb[i + 1], rgb[i + 2] };
}

} // namespace

TEST_CASE("PNG files written with stb_image_write read back pixel for pixel", "[examples][output]")
{
    const std::filesystem::path dir = fresh_folder("png");
    const int w = 300, h = 250;
    std::vector<unsigned char> rgb(std::size_t(w * h * 3));
    for (std::size_t i = 0; i < rgb.size(); ++i) {
        rgb[i] = static_cast<unsigned char>(i * 7 + i / 911);
    }
    const std::string path = (dir / "picture.png").string();
    write_png(path, rgb, w, h);

    int rw = 0, rh = 0, channels = 0;
    unsigned char* back = stbi_load(path.c_str(), &rw, &rh, &channels, 3);
    REQUIRE(back != nullptr);
    CHECK(rw == w);
    CHECK(rh == h);
    CHECK(channels == 3);
    CHECK(std::memcmp(back, rgb.data(), rgb.size()) == 0);
    stbi_image_free(back);

    // The file is a PNG: signature, then the IHDR chunk with the size.
    std::ifstream file(path, std::ios::binary);
    std::vector<unsigned char> head(24);
    file.read(reinterpret_cast<char*>(head.data()), 24);
    CHECK(std::memcmp(head.data(), "\x89PNG\r\n\x1a\n", 8) == 0);
    CHECK(std::memcmp(head.data() + 12, "IHDR", 4) == 0);
    CHECK(((head[16] << 24) | (head[17] << 16) | (head[18] << 8) | head[19]) == w);
    CHECK(((head[20] << 24) | (head[21] << 16) | (head[22] << 8) | head[23]) == h);

    CHECK_THROWS_AS(write_png(path, rgb, w + 1, h), ipc::invalid_argument);
    CHECK_THROWS_AS(write_png(path, rgb, 0, 0), ipc::invalid_argument);
    CHECK_THROWS_AS(write_png("/proc/nope/picture.png", rgb, w, h), ipc::error);
    std::filesystem::remove_all(dir);
}

TEST_CASE("JSON files written by the examples parse back with their values", "[examples][output]")
{
    const std::filesystem::path dir = fresh_folder("json");
    Json document;
    document["scene"] = "a\"b\\c\n";
    document["parameters"] = { { "dt", json_number(0.5) }, { "limit", json_number(std::optional<double>()) },
        { "given", json_number(std::optional<double>(1.25)) } };
    document["steps"] = Json::array();
    document["steps"].push_back({ { "n", 3 }, { "ok", true } });
    document["steps"].push_back({ { "gap", json_number(std::numeric_limits<double>::infinity()) },
        { "nan", json_number(std::numeric_limits<double>::quiet_NaN()) } });
    const std::string path = (dir / "sub" / "stats.json").string(); // the folder is created
    write_json(path, document);

    std::ifstream file(path);
    REQUIRE(file);
    const nlohmann::json back = nlohmann::json::parse(file);
    CHECK(back.at("scene") == "a\"b\\c\n");
    CHECK(back.at("parameters").at("dt") == 0.5);
    CHECK(back.at("parameters").at("limit").is_null());
    CHECK(back.at("parameters").at("given") == 1.25);
    REQUIRE(back.at("steps").size() == 2);
    CHECK(back.at("steps")[0].at("n") == 3);
    CHECK(back.at("steps")[0].at("ok") == true);
    CHECK(back.at("steps")[1].at("gap").is_null());
    CHECK(back.at("steps")[1].at("nan").is_null());
    // Members keep the order they were added in.
    CHECK(document.dump(-1).rfind("{\"scene\":", 0) == 0);

    CHECK_THROWS_AS(write_json("/proc/nope/stats.json", document), ipc::error);
    CHECK_THROWS_AS(write_json(dir.string(), document), ipc::error); // a folder
    std::filesystem::remove_all(dir);
}

TEST_CASE("rasterizer draws a triangle in front of the camera only", "[examples][output]")
{
    Rasterizer r(64, 48, { 0, 0, 5 }, { 0, 0, 0 });
    const auto before = r.image();
    r.triangle({ -1, -1, 0 }, { 1, -1, 0 }, { 0, 1, 0 }, { 255, 0, 0 });
    const auto& after = r.image();
    // The centre pixel turned red-ish, a corner kept the background.
    const std::size_t centre = 3 * (24 * 64 + 32);
    CHECK(after[centre] > 80);
    CHECK(after[centre + 1] == 0);
    CHECK(after[0] == before[0]);
    // A nearer blue triangle hides it; a farther green one does not.
    r.triangle({ -0.5, -0.5, 1 }, { 0.5, -0.5, 1 }, { 0, 0.5, 1 }, { 0, 0, 255 });
    r.triangle({ -3, -3, -1 }, { 3, -3, -1 }, { 0, 3, -1 }, { 0, 255, 0 });
    CHECK(r.image()[centre + 2] > 80);
    CHECK(r.image()[centre + 1] == 0);
}

TEST_CASE("blended triangles mix with what lies behind and hide nothing", "[examples][output]")
{
    Rasterizer r(64, 48, { 0, 0, 5 }, { 0, 0, 0 });
    const int cx = 32, cy = 24;
    const Color background = pixel(r.image(), 64, cx, cy);
    // The same triangle drawn opaque, in a second image.
    Rasterizer opaque_image(64, 48, { 0, 0, 5 }, { 0, 0, 0 });
    opaque_image.triangle({ -1, -1, 1 }, { 1, -1, 1 }, { 0, 1, 1 }, { 20, 40, 250 });
    const Color opaque = pixel(opaque_image.image(), 64, cx, cy);
    REQUIRE(opaque != background);
    // Half transparent over the background: halfway between the two, per channel.
    r.triangle({ -1, -1, 1 }, { 1, -1, 1 }, { 0, 1, 1 }, { 20, 40, 250 }, 0.5);
    const Color mixed = pixel(r.image(), 64, cx, cy);
    for (int k = 0; k < 3; ++k) {
        CHECK(std::abs(2 * int(mixed[k]) - int(background[k]) - int(opaque[k])) <= 2);
    }
    // It left the depth buffer alone: an opaque red triangle behind it
    // still draws (the caller draws blended ones last for that reason).
    r.triangle({ -1, -1, 0 }, { 1, -1, 0 }, { 0, 1, 0 }, { 255, 0, 0 });
    CHECK(pixel(r.image(), 64, cx, cy)[1] == 0);
    // A blended triangle behind the opaque one changes nothing.
    const Color red = pixel(r.image(), 64, cx, cy);
    r.triangle({ -1, -1, -1 }, { 1, -1, -1 }, { 0, 1, -1 }, { 0, 255, 0 }, 0.5);
    CHECK(pixel(r.image(), 64, cx, cy) == red);
    // Opacity 0 draws nothing, in front or not.
    r.triangle({ -1, -1, 2 }, { 1, -1, 2 }, { 0, 1, 2 }, { 0, 0, 255 }, 0);
    CHECK(pixel(r.image(), 64, cx, cy) == red);
    // view_depth sorts far to near.
    CHECK(r.view_depth({ 0, 0, -1 }) > r.view_depth({ 0, 0, 1 }));
}

TEST_CASE("points are filled discs with an outline", "[examples][output]")
{
    Rasterizer r(64, 48, { 0, 0, 5 }, { 0, 0, 0 });
    const Color fill { 200, 60, 160 }, ring { 30, 10, 20 };
    r.point({ 0, 0, 0 }, fill, 6, ring, 2);
    CHECK(pixel(r.image(), 64, 32, 24) == fill);          // centre
    CHECK(pixel(r.image(), 64, 32 + 5, 24) == ring);      // rim, 5.5 px from the centre
    CHECK(pixel(r.image(), 64, 32 + 9, 24) != ring);      // outside
    CHECK(pixel(r.image(), 64, 32 + 9, 24) != fill);
    // Without an outline the disc is one colour (a fresh image: the depth
    // test keeps the first point drawn at a depth).
    Rasterizer plain(64, 48, { 0, 0, 5 }, { 0, 0, 0 });
    plain.point({ 0, 0, 0 }, fill, 6, ring, 0);
    CHECK(pixel(plain.image(), 64, 32, 24) == fill);
    CHECK(pixel(plain.image(), 64, 32 + 5, 24) == fill);
}

TEST_CASE("the bitmap font covers the captions and draws text where asked", "[examples][output]")
{
    for (const char c : std::string("abcdefghijklmnopqrstuvwxyz0123456789 .,:=-+_()/%?")) {
        const Glyph* g = find_glyph(c);
        REQUIRE(g != nullptr);
        CHECK(g->c == c);
        for (const char* row : g->rows) { // every given row is 5 pixels of '#' or '.'
            if (row != nullptr) {
                CHECK(std::strlen(row) == std::size_t(glyph_width));
                CHECK(std::string(row).find_first_not_of("#.") == std::string::npos);
            }
        }
    }
    CHECK(find_glyph('A') == find_glyph('a'));
    CHECK(find_glyph('~') == nullptr);
    CHECK(glyph_ink(*find_glyph('1'), 2, 0));
    CHECK_FALSE(glyph_ink(*find_glyph('1'), 0, 0));
    CHECK_FALSE(glyph_ink(*find_glyph(' '), 2, 3));
    // Distinct glyphs for the digits.
    std::set<std::string> shapes;
    for (const char c : std::string("0123456789")) {
        std::string shape;
        for (int y = 0; y < glyph_height; ++y) {
            for (int x = 0; x < glyph_width; ++x) {
                shape += glyph_ink(*find_glyph(c), x, y) ? '#' : '.';
            }
        }
        shapes.insert(shape);
    }
    CHECK(shapes.size() == 10);

    Rasterizer r(120, 40, { 0, 0, 5 }, { 0, 0, 0 });
    const auto before = r.image();
    const std::string text = "t = 0.5 s";
    const int scale = 2, x0 = 10, y0 = 6;
    r.text(x0, y0, text, { 255, 0, 0 }, scale);
    CHECK(Rasterizer::text_width(text, scale) == (int(text.size()) * glyph_advance - 1) * scale);
    int inside = 0, outside = 0;
    for (int y = 0; y < 40; ++y) {
        for (int x = 0; x < 120; ++x) {
            if (pixel(r.image(), 120, x, y) == pixel(before, 120, x, y)) {
                continue;
            }
            const bool in_box = x >= x0 && x < x0 + Rasterizer::text_width(text, scale) && y >= y0
                && y < y0 + Rasterizer::text_height(scale);
            (in_box ? inside : outside) += 1;
            CHECK(pixel(r.image(), 120, x, y) == Color { 255, 0, 0 });
        }
    }
    CHECK(inside > 40);
    CHECK(outside == 0);
    // Text off the image edges is clipped, not written out of bounds.
    r.text(110, 35, "clipped", { 0, 0, 255 }, 3);
    r.text(-20, -5, "clipped", { 0, 0, 255 }, 3);
    // A panel blends a rectangle.
    Rasterizer p(10, 10, { 0, 0, 5 }, { 0, 0, 0 });
    p.panel(2, 2, 3, 3, { 0, 0, 0 }, 1);
    CHECK(pixel(p.image(), 10, 3, 3) == Color { 0, 0, 0 });
    CHECK(pixel(p.image(), 10, 6, 6) != Color { 0, 0, 0 });
}

TEST_CASE("scene builders make valid meshes", "[examples][scenes]")
{
    const TriangleMesh cloth = grid_cloth({ 0, 1, 0 }, 2, 1, 4, 2);
    CHECK(cloth.vertices.rows() == 15);
    CHECK(cloth.faces.rows() == 16);
    for (Eigen::Index f = 0; f < cloth.faces.rows(); ++f) { // facing +y
        const Eigen::Vector3d a = cloth.vertices.row(cloth.faces(f, 0)), b = cloth.vertices.row(cloth.faces(f, 1)),
                              c = cloth.vertices.row(cloth.faces(f, 2));
        CHECK((b - a).cross(c - a).y() > 0);
    }
    const TriangleMesh sphere = sphere_mesh({ 0, 0, 0 }, 2, 6, 8);
    double volume = 0; // closed and outward: positive enclosed volume close to the sphere's
    for (Eigen::Index f = 0; f < sphere.faces.rows(); ++f) {
        const Eigen::Vector3d a = sphere.vertices.row(sphere.faces(f, 0)), b = sphere.vertices.row(sphere.faces(f, 1)),
                              c = sphere.vertices.row(sphere.faces(f, 2));
        volume += a.dot(b.cross(c)) / 6;
    }
    CHECK(volume > 0.7 * 4.0 / 3.0 * pi * 8);
    CHECK(volume < 4.0 / 3.0 * pi * 8);
    const TetMesh box = box_tet_mesh({ 0, 0, 0 }, { 1, 2, 3 }, 2, 2, 2);
    double total = 0;
    for (Eigen::Index t = 0; t < box.tets.rows(); ++t) {
        Eigen::Matrix3d D;
        for (int k = 0; k < 3; ++k) {
            D.col(k) = (box.vertices.row(box.tets(t, k + 1)) - box.vertices.row(box.tets(t, 0))).transpose();
        }
        total += std::abs(D.determinant()) / 6;
        CHECK(std::abs(D.determinant()) > 0);
    }
    CHECK(total == Approx(6.0));
    const TetMesh ball = ball_tet_mesh({ 0, 0, 0 }, 1, 4);
    CHECK(ball.tets.rows() > 0);
    CHECK(ball.tets.maxCoeff() == ball.vertices.rows() - 1);
    CHECK(rod_polyline({ 0, 0, 0 }, { 1, 0, 0 }, 4).rows() == 5);
    CHECK(particle_lattice({ 0, 0, 0 }, 0.1, 2, 3, 4).rows() == 24);
    CHECK_THROWS_AS(grid_cloth({ 0, 0, 0 }, 1, 1, 0, 1), ipc::invalid_argument);
}

namespace {
/// Sum of the signed volumes of the tets (all must be positive).
double positive_volume(const TetMesh& m)
{
    double total = 0;
    for (Eigen::Index t = 0; t < m.tets.rows(); ++t) {
        Eigen::Matrix3d D;
        for (int k = 0; k < 3; ++k) {
            D.col(k) = (m.vertices.row(m.tets(t, k + 1)) - m.vertices.row(m.tets(t, 0))).transpose();
        }
        CHECK(D.determinant() > 0);
        total += D.determinant() / 6;
    }
    return total;
}
} // namespace

TEST_CASE("rings, voussoirs and open boxes are valid and the right size", "[examples][scenes]")
{
    // A square-section ring of 24 straight prisms, each a trapezoid of area
    // 2 R a sin(2 pi / 24) times the height 2a; every tet positive; closed at
    // the seam (no vertex beyond the 4 per segment).
    const double R = 0.03, a = 0.004;
    const TetMesh ring = ring_tet_mesh({ 0, 0, 0 }, Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitZ(), R, a, 24);
    CHECK(ring.vertices.rows() == 96);
    CHECK(ring.tets.maxCoeff() == 95);
    CHECK(positive_volume(ring) == Approx(24 * 4 * R * a * a * std::sin(2 * pi / 24)).epsilon(1e-9));
    // The same ring with a cross-section of 3 x 3 squares: 16 vertices per
    // segment, every tet positive, the same volume.
    const TetMesh fine = ring_tet_mesh({ 0, 0, 0 }, Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitZ(), R, a, 24, 3);
    CHECK(fine.vertices.rows() == 24 * 16);
    CHECK(fine.tets.rows() == 6 * 24 * 9);
    CHECK(fine.tets.maxCoeff() == 24 * 16 - 1);
    CHECK(positive_volume(fine) == Approx(24 * 4 * R * a * a * std::sin(2 * pi / 24)).epsilon(1e-9));
    // Conforming: only the torus's outer surface is boundary, 4 sides of 3
    // squares per segment, 2 triangles each (a mismatched diagonal would
    // leave inner faces unshared).
    CHECK(boundary_faces(fine.tets).rows() == 24 * 4 * 3 * 2);
    // Voussoirs without joints tile the polygonal half annulus: 5 trapezoids
    // of area (outer^2 - inner^2) sin(pi / 5) / 2, depth 0.5.
    double arch = 0;
    for (int k = 0; k < 5; ++k) {
        const TetMesh block = voussoir_tet_mesh({ 0, 0, 0 }, 1, 1.2, 0.5, 5, k, 0.0);
        arch += positive_volume(block);
        CHECK(block.vertices.col(1).minCoeff() >= -1e-12); // above the springing line
    }
    CHECK(arch == Approx(5 * 0.5 * (1.44 - 1) * std::sin(pi / 5) * 0.5).epsilon(1e-9));
    // With a gap, neighbouring blocks' facing sides are exactly gap apart.
    const TetMesh left = voussoir_tet_mesh({ 0, 0, 0 }, 1, 1.2, 0.5, 5, 1, 0.01);
    const TetMesh right = voussoir_tet_mesh({ 0, 0, 0 }, 1, 1.2, 0.5, 5, 2, 0.01);
    const Eigen::Vector3d normal(-std::sin(2 * pi / 5), std::cos(2 * pi / 5), 0);
    CHECK(right.vertices.row(0).dot(normal) - left.vertices.row(2).dot(normal) == Approx(0.01));
    // Open box: 5 faces of n x n quads, the shared edges welded, facing in.
    const TriangleMesh box = open_box_mesh({ 0, 0, 0 }, 1, 2, 3, 2);
    CHECK(box.faces.rows() == 5 * 8);
    CHECK(box.vertices.rows() == 9 + 4 * 6 - 4 * 2); // floor, walls above it, less the shared vertical edges
    for (Eigen::Index f = 0; f < box.faces.rows(); ++f) {
        const Eigen::Vector3d p = box.vertices.row(box.faces(f, 0)), q = box.vertices.row(box.faces(f, 1)),
                              r = box.vertices.row(box.faces(f, 2));
        const Eigen::Vector3d centroid = (p + q + r) / 3, inside(0, 1.5, 0);
        CHECK((q - p).cross(r - p).dot(inside - centroid) > 0);
    }
}

TEST_CASE("sparse sums in place and with a new pattern agree with dense sums", "[examples][assembly]")
{
    // A holds a random pattern; B_in lies inside it, B_out does not.
    Eigen::MatrixXd dense_A = Eigen::MatrixXd::Random(9, 9), dense_in = Eigen::MatrixXd::Random(9, 9);
    dense_A = (dense_A.array().abs() < 0.6).select(dense_A, 0.0);
    dense_A(8, 0) = 0; // so B_out (which stores (8, 0)) is never contained in A
    dense_in = (dense_A.array() != 0.0).select(dense_in, 0.0);
    Eigen::MatrixXd dense_out = dense_in;
    dense_out(8, 0) = 1.5;
    const Eigen::SparseMatrix<double> A0 = dense_A.sparseView();
    for (const Eigen::MatrixXd* dense_B : { &dense_in, &dense_out }) {
        Eigen::SparseMatrix<double> A = A0;
        const Eigen::SparseMatrix<double> B = dense_B->sparseView();
        add_scaled(A, B, -0.5);
        CHECK((Eigen::MatrixXd(A) - (dense_A - 0.5 * *dense_B)).norm() == Approx(0).margin(1e-15));
        if (dense_B == &dense_in) {
            CHECK(A.nonZeros() == A0.nonZeros()); // in place: the pattern is kept
        }
    }
    Eigen::SparseMatrix<double> wrong(3, 3);
    Eigen::SparseMatrix<double> A = A0;
    CHECK_THROWS_AS(add_scaled(A, wrong), ipc::invalid_argument);

    // drop_held removes every entry of a held vertex's rows and columns.
    Eigen::SparseMatrix<double> H = Eigen::MatrixXd::Ones(9, 9).sparseView();
    drop_held(H, { false, true, false });
    CHECK(H.nonZeros() == 36);
    CHECK(Eigen::MatrixXd(H).block<3, 9>(3, 0).isZero());
    CHECK(Eigen::MatrixXd(H).block<9, 3>(0, 3).isZero());
}

TEST_CASE("held vertices become identity rows without changing the free system", "[examples][assembly]")
{
    // Three vertices, the middle one held: a dense SPD matrix keeps its
    // free-free block and gets unit rows and columns for vertex 1.
    Eigen::MatrixXd A = Eigen::MatrixXd::Random(9, 9);
    A = A * A.transpose() + 9 * Eigen::MatrixXd::Identity(9, 9);
    Eigen::SparseMatrix<double> H = A.sparseView();
    const std::vector<bool> held { false, true, false };
    hold_dofs(H, held);
    // Held rows and columns keep only their diagonal in the pattern, so the
    // pattern does not depend on which held vertices a contact touches.
    CHECK(H.nonZeros() == 6 * 6 + 3);
    const Eigen::MatrixXd D = Eigen::MatrixXd(H);
    for (int i = 0; i < 9; ++i) {
        for (int j = 0; j < 9; ++j) {
            const bool touches_held = (i >= 3 && i < 6) || (j >= 3 && j < 6);
            CHECK(D(i, j) == (touches_held ? (i == j ? 1.0 : 0.0) : A(i, j)));
        }
    }
    Eigen::VectorXd g = Eigen::VectorXd::LinSpaced(9, 1, 9);
    zero_held(g, held);
    CHECK(g.segment<3>(3).isZero());
    CHECK(g[0] == 1);
    CHECK(g[8] == 9);
    CHECK_THROWS_AS(zero_held(g, { false }), ipc::invalid_argument);
    Eigen::SparseMatrix<double> no_diagonal(6, 6);
    no_diagonal.insert(0, 1) = 1;
    CHECK_THROWS_AS(hold_dofs(no_diagonal, { true, false }), ipc::invalid_argument);
}

TEST_CASE("a kept factorisation solves like a fresh one, and falls back on the diagonal", "[examples][assembly]")
{
    Eigen::MatrixXd A = Eigen::MatrixXd::Random(12, 12);
    A = A * A.transpose() + 12 * Eigen::MatrixXd::Identity(12, 12);
    const Eigen::SparseMatrix<double> lower = Eigen::MatrixXd(A.triangularView<Eigen::Lower>()).sparseView();
    NewtonLinearSolver<Eigen::Lower> kept, fresh;
    Eigen::SparseMatrix<double> H = lower;
    CHECK_THROWS_AS(kept.solve(Eigen::VectorXd::Ones(12)), ipc::invalid_argument); // nothing factorised yet
    REQUIRE(kept.factorize(H));
    for (int k = 0; k < 3; ++k) {
        const Eigen::VectorXd g = Eigen::VectorXd::Random(12);
        const Eigen::VectorXd p = kept.solve(g);
        CHECK((A * p + g).norm() <= 1e-12 * g.norm() * A.norm());
        Eigen::SparseMatrix<double> copy = lower;
        CHECK((p - fresh.solve(copy, g)).norm() <= 1e-14 * p.norm());
    }
    CHECK(kept.factorizations() == 1);
    CHECK(kept.failed_factorizations() == 0);
    CHECK_THROWS_AS(kept.solve(Eigen::VectorXd::Ones(5)), ipc::invalid_argument);

    Eigen::SparseMatrix<double> negative = -lower;
    const Eigen::VectorXd g = Eigen::VectorXd::LinSpaced(12, 1, 12);
#if defined(IPC_EXAMPLES_HAS_CHOLMOD)
    // Negative definite: every shifted Cholesky attempt fails, and the step
    // is the gradient scaled by |diag H| (which keeps the last shift).
    CHECK_FALSE(kept.factorize(negative));
    CHECK(kept.factorizations() == 5);
    CHECK(kept.failed_factorizations() == 4);
    kept.reset_count();
    CHECK(kept.failed_factorizations() == 0);
    CHECK((kept.solve(g) + g.cwiseQuotient(negative.diagonal().cwiseAbs())).norm() <= 1e-15 * g.norm());
#else
    // LDL^T factorises an indefinite matrix too.
    CHECK(kept.factorize(negative));
    CHECK((-A * kept.solve(g) + g).norm() <= 1e-12 * g.norm() * A.norm());
#endif
}

TEST_CASE("a large factorisation runs on the threads the thread limit allows and solves like a serial one",
    "[examples][assembly]")
{
    // The 7-point Laplacian of a 16^3 grid, shifted: 4,096 unknowns whose
    // factor fills like a volume's.
    const int m = 16;
    const int n = m * m * m;
    std::vector<Eigen::Triplet<double>> entries;
    const auto id = [m](int i, int j, int k) { return (i * m + j) * m + k; };
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            for (int k = 0; k < m; ++k) {
                const int r = id(i, j, k);
                entries.emplace_back(r, r, 6.5);
                if (i > 0) entries.emplace_back(r, id(i - 1, j, k), -1.0);
                if (j > 0) entries.emplace_back(r, id(i, j - 1, k), -1.0);
                if (k > 0) entries.emplace_back(r, id(i, j, k - 1), -1.0);
            }
        }
    }
    Eigen::SparseMatrix<double> lower(n, n);
    lower.setFromTriplets(entries.begin(), entries.end());
    const Eigen::SparseMatrix<double> A = Eigen::SparseMatrix<double>(lower.selfadjointView<Eigen::Lower>());
    const Eigen::VectorXd g = Eigen::VectorXd::LinSpaced(n, -1, 1);

    NewtonLinearSolver<Eigen::Lower> serial, parallel;
    CHECK(serial.parallel_flops() == 2e10);
    serial.set_parallel_flops(std::numeric_limits<double>::infinity());
    parallel.set_parallel_flops(0);
    CHECK_THROWS_AS(parallel.set_parallel_flops(-1), ipc::invalid_argument);
#if IPC_HAS_OPENMP
    // The examples' suite runs with OMP_THREAD_LIMIT=2 (see tests/CMakeLists.txt),
    // so the parallel solver's factorisation runs on 2 threads; with another
    // limit it runs on one, and only the solutions are compared.
    const int threads = omp_get_max_threads();
    const int dynamic = omp_get_dynamic();
    omp_set_num_threads(2);
    if (omp_get_thread_limit() != 2) {
        WARN("OMP_THREAD_LIMIT is not 2: the parallel factorisation runs on one thread");
    }
#endif
    Eigen::SparseMatrix<double> H1 = lower, H2 = lower;
    const Eigen::VectorXd p_serial = serial.solve(H1, g);
    const Eigen::VectorXd p_parallel = parallel.solve(H2, g);
#if defined(IPC_EXAMPLES_HAS_CHOLMOD)
    CHECK(parallel.parallel());
#endif
    CHECK_FALSE(serial.parallel());
    CHECK((A * p_serial + g).norm() <= 1e-12 * g.norm());
    CHECK((A * p_parallel + g).norm() <= 1e-12 * g.norm());
    CHECK((p_serial - p_parallel).norm() <= 1e-12 * p_serial.norm());
    REQUIRE(parallel.factorize(H2)); // the kept factorisation, on the same threads
    CHECK((p_parallel - parallel.solve(g)).norm() <= 1e-14 * p_parallel.norm());
#if IPC_HAS_OPENMP
    CHECK(omp_get_max_threads() == 2); // the caller's settings come back
    CHECK(omp_get_dynamic() == dynamic);
    omp_set_num_threads(threads);
#endif
}

TEST_CASE("frames name each obstacle apart from the bodies and keep every digit", "[examples][output]")
{
    Model model;
    const TriangleMesh ground = board_mesh({ 0, 0, 0 }, 1.0, 2);
    model.add_obstacle(ground.vertices, ground.faces);
    const TetMesh block = box_tet_mesh({ -0.1, 0.01, -0.1 }, { 0.1, 0.2, 0.1 }, 1, 1, 1);
    model.add_volume(block.vertices, block.tets, VolumeMaterial {}, 0);
    const TriangleMesh lid = board_mesh({ 0, 0.3, 0 }, 0.5, 1);
    model.add_obstacle(lid.vertices, lid.faces);
    model.add_particles(particle_lattice({ 0.3, 0.1, 0.3 }, 0.05, 2, 1, 1), ParticleMaterial {}, 0);
    model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, -0.5, 0 }, { 0, 2, 0 } }, 0.75); // a plane below all
    Eigen::MatrixXd x = model.positions;
    x(9, 0) = -0.1 + 1e-15; // the block moved by a digit past the ninth

    const std::filesystem::path dir = fresh_folder("frame");
    const std::string path = (dir / "frame.obj").string();
    write_frame(path, model, model.collision_mesh(), x);

    std::ifstream in(path);
    std::string line, object;
    std::vector<std::string> objects;
    std::map<std::string, int> faces, points;
    std::vector<Eigen::RowVector3d> vertices;
    while (std::getline(in, line)) {
        std::istringstream s(line);
        std::string tag;
        s >> tag;
        if (tag == "v") {
            Eigen::RowVector3d v;
            s >> v[0] >> v[1] >> v[2];
            vertices.push_back(v);
        } else if (tag == "o") {
            s >> object;
            objects.push_back(object);
        } else if (tag == "f") {
            ++faces[object];
        } else if (tag == "p") {
            ++points[object];
        }
    }
    std::filesystem::remove_all(dir);
    CHECK(objects == std::vector<std::string> { "bodies", "obstacle_0", "obstacle_1", "obstacle_plane" });
    CHECK(faces["obstacle_0"] == 8); // the 2 x 2 ground
    CHECK(faces["obstacle_1"] == 2); // the 1 x 1 lid
    CHECK(faces["bodies"] == 12);    // the block's boundary
    CHECK(faces["obstacle_plane"] == 2); // the analytic plane drawn as a board
    CHECK(points["bodies"] == 2);
    REQUIRE(vertices.size() == std::size_t(x.rows()) + 4); // the board's corners come last
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        CHECK(vertices[std::size_t(i)] == x.row(i)); // exact round trip
    }
    for (std::size_t i = std::size_t(x.rows()); i < vertices.size(); ++i) {
        CHECK(vertices[i].y() == -0.5);                                // on the plane
        CHECK(vertices[i].cwiseAbs().maxCoeff() == Approx(0.75));       // at the board's half-size
    }
}
