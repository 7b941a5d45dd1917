#include <catch2/catch.hpp>

#include <common/json_writer.hpp>
#include <common/png_writer.hpp>
#include <common/rasterizer.hpp>
#include <common/scene_builders.hpp>
#include <common/sparse_assembly.hpp>

#include <Eigen/Dense>

#include <cstring>
#include <set>
#include <string>

using namespace ipc::examples;

TEST_CASE("CRC-32 and Adler-32 match their published check values", "[examples][output]")
{
    const char* digits = "123456789";
    CHECK(crc32(reinterpret_cast<const unsigned char*>(digits), 9) == 0xCBF43926u);
    const char* wiki = "Wikipedia";
    CHECK(adler32(reinterpret_cast<const unsigned char*>(wiki), std::strlen(wiki)) == 0x11E60398u);
}

TEST_CASE("PNG encoder writes a well-formed file", "[examples][output]")
{
    const int w = 300, h = 250; // more than one 64 KiB stored block
    std::vector<unsigned char> rgb(std::size_t(w * h * 3));
    for (std::size_t i = 0; i < rgb.size(); ++i) {
        rgb[i] = static_cast<unsigned char>(i * 7);
    }
    const std::vector<unsigned char> png = encode_png(rgb, w, h);
    REQUIRE(png.size() > 8 + 25 + rgb.size());
    CHECK(std::memcmp(png.data(), "\x89PNG\r\n\x1a\n", 8) == 0);
    // Walk the chunks and verify every CRC; reassemble the zlib stream.
    std::size_t pos = 8;
    std::vector<unsigned char> zlib;
    std::vector<std::string> types;
    auto get32 = [&](std::size_t at) {
        return (std::uint32_t(png[at]) << 24) | (std::uint32_t(png[at + 1]) << 16) | (std::uint32_t(png[at + 2]) << 8)
            | std::uint32_t(png[at + 3]);
    };
    while (pos < png.size()) {
        const std::uint32_t length = get32(pos);
        const std::string type(png.begin() + std::ptrdiff_t(pos + 4), png.begin() + std::ptrdiff_t(pos + 8));
        types.push_back(type);
        CHECK(crc32(&png[pos + 4], length + 4) == get32(pos + 8 + length));
        if (type == "IDAT") {
            zlib.insert(zlib.end(), png.begin() + std::ptrdiff_t(pos + 8), png.begin() + std::ptrdiff_t(pos + 8 + length));
        }
        pos += 12 + length;
    }
    CHECK(types == std::vector<std::string> { "IHDR", "IDAT", "IEND" });
    // Decode the stored blocks and compare with the filtered scanlines.
    std::vector<unsigned char> raw;
    std::size_t z = 2;
    bool last = false;
    while (!last) {
        last = (zlib[z] & 1) != 0;
        CHECK((zlib[z] >> 1) == 0); // stored
        const std::size_t len = zlib[z + 1] | (std::size_t(zlib[z + 2]) << 8);
        const std::size_t nlen = zlib[z + 3] | (std::size_t(zlib[z + 4]) << 8);
        CHECK((len ^ nlen) == 0xFFFF);
        raw.insert(raw.end(), zlib.begin() + std::ptrdiff_t(z + 5), zlib.begin() + std::ptrdiff_t(z + 5 + len));
        z += 5 + len;
    }
    REQUIRE(raw.size() == std::size_t(h * (3 * w + 1)));
    CHECK(adler32(raw.data(), raw.size()) == ((std::uint32_t(zlib[z]) << 24) | (std::uint32_t(zlib[z + 1]) << 16)
                                                 | (std::uint32_t(zlib[z + 2]) << 8) | zlib[z + 3]));
    for (int y = 0; y < h; ++y) {
        CHECK(raw[std::size_t(y * (3 * w + 1))] == 0);
        CHECK(std::memcmp(&raw[std::size_t(y * (3 * w + 1) + 1)], &rgb[std::size_t(y * 3 * w)], std::size_t(3 * w)) == 0);
    }
    CHECK_THROWS_AS(encode_png(rgb, w + 1, h), ipc::invalid_argument);
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

TEST_CASE("JSON writer produces valid nesting, escaping and nulls", "[examples][output]")
{
    JsonWriter j;
    j.begin_object();
    j.member("scene", "a\"b\\c\n");
    j.key("parameters").begin_object().member("dt", 0.5).member("limit", std::optional<double>()).end_object();
    j.key("steps").begin_array();
    j.begin_object().member("n", 3).member("ok", true).end_object();
    j.begin_object().member("gap", std::numeric_limits<double>::infinity()).end_object();
    j.end_array();
    j.end_object();
    CHECK(j.str()
        == R"({"scene":"a\"b\\c\n","parameters":{"dt":0.5,"limit":null},"steps":[{"n":3,"ok":true},{"gap":null}]})");
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
