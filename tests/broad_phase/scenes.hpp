#pragma once
// Small meshes of every codimension mix for the broad-phase tests.

#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <random>
#include <string>
#include <vector>

namespace ipc::test {

/// A mesh description plus a second configuration for swept queries.
struct Scene {
    std::string name;
    Eigen::MatrixXd V0, V1;
    Eigen::MatrixXi T, F, E;
    Eigen::VectorXd radii;

    CollisionMesh mesh() const
    {
        CollisionMesh::Builder builder(V0);
        builder.tetrahedra(T).faces(F).edges(E);
        if (radii.size() > 0) {
            builder.vertex_radii(radii);
        }
        return builder.build();
    }
};

/// Appends rows of b to a (any column count, a may be empty).
template <typename M> void append(M& a, const M& b)
{
    if (b.rows() == 0) {
        return;
    }
    M result(a.rows() + b.rows(), b.cols());
    if (a.rows() > 0) {
        result.topRows(a.rows()) = a;
    }
    result.bottomRows(b.rows()) = b;
    a = result;
}

class SceneMaker {
public:
    explicit SceneMaker(int dim, unsigned seed = 7) : dim_(dim), rng_(seed) { V_.resize(0, dim); }

    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

    int add_vertex(const Eigen::RowVectorXd& x)
    {
        append(V_, Eigen::MatrixXd(x));
        return int(V_.rows() - 1);
    }

    /// Cube [o, o + s]^3 split into 6 tetrahedra around its diagonal, jittered.
    void tet_cube(const Eigen::RowVector3d& o, double s, bool centre_vertex = false)
    {
        const int base = int(V_.rows());
        for (int k = 0; k < 8; ++k) {
            Eigen::RowVector3d x = o + s * Eigen::RowVector3d(k & 1, (k >> 1) & 1, (k >> 2) & 1);
            add_vertex(x + 0.05 * s * jitter3());
        }
        if (!centre_vertex) {
            const int tets[6][4] = { { 0, 1, 3, 7 }, { 0, 1, 5, 7 }, { 0, 2, 3, 7 },
                                     { 0, 2, 6, 7 }, { 0, 4, 5, 7 }, { 0, 4, 6, 7 } };
            for (const auto& t : tets) {
                add_tet(base + t[0], base + t[1], base + t[2], base + t[3]);
            }
            return;
        }
        const int c = add_vertex(o + 0.5 * s * Eigen::RowVector3d(1, 1, 1));
        const int quads[6][4] = { { 0, 1, 3, 2 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 },
                                  { 2, 3, 7, 6 }, { 0, 2, 6, 4 }, { 1, 3, 7, 5 } };
        for (const auto& q : quads) {
            add_tet(base + q[0], base + q[1], base + q[2], c);
            add_tet(base + q[0], base + q[2], base + q[3], c);
        }
    }

    /// n x n vertex sheet over [o, o + s]^2 in the xy plane, wavy in z.
    void sheet(const Eigen::RowVector3d& o, double s, int n)
    {
        const int base = int(V_.rows());
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) {
                const double u = double(i) / (n - 1), v = double(j) / (n - 1);
                add_vertex(o + Eigen::RowVector3d(s * u, s * v, 0.05 * s * std::sin(6 * u + 3 * v))
                           + 0.02 * s * jitter3());
            }
        }
        for (int j = 0; j + 1 < n; ++j) {
            for (int i = 0; i + 1 < n; ++i) {
                const int a = base + j * n + i, b = a + 1, c = a + n, d = c + 1;
                Eigen::MatrixXi f(2, 3);
                f << a, b, d, a, d, c;
                append(F_, f);
            }
        }
    }

    /// Polyline of `segments` random steps of length about `step`.
    void rod(const Eigen::RowVectorXd& start, double step, int segments)
    {
        int previous = add_vertex(start);
        Eigen::RowVectorXd x = start;
        for (int k = 0; k < segments; ++k) {
            Eigen::RowVectorXd direction = jitter();
            direction.normalize();
            x += step * direction;
            const int next = add_vertex(x);
            Eigen::MatrixXi e(1, 2);
            e << previous, next;
            append(E_, e);
            previous = next;
        }
    }

    /// Closed polygon (2D) of `count` vertices around a centre.
    void loop_2d(const Eigen::RowVector2d& centre, double radius, int count)
    {
        const int base = int(V_.rows());
        for (int k = 0; k < count; ++k) {
            const double angle = 2 * 3.14159265358979 * k / count;
            add_vertex(centre + radius * (1 + 0.1 * uniform(-1, 1)) * Eigen::RowVector2d(std::cos(angle), std::sin(angle)));
        }
        for (int k = 0; k < count; ++k) {
            Eigen::MatrixXi e(1, 2);
            e << base + k, base + (k + 1) % count;
            append(E_, e);
        }
    }

    /// Free particles uniformly in [lo, hi]^dim.
    void particles(int count, double lo, double hi)
    {
        for (int k = 0; k < count; ++k) {
            Eigen::RowVectorXd x(dim_);
            for (int d = 0; d < dim_; ++d) {
                x[d] = uniform(lo, hi);
            }
            add_vertex(x);
        }
    }

    /// The scene with V1 = V0 + random displacement of size up to `motion`;
    /// radii uniform in [0, max_radius] (some exactly zero).
    Scene finish(const std::string& name, double motion, double max_radius)
    {
        Scene scene;
        scene.name = name;
        scene.V0 = V_;
        scene.V1 = V_;
        for (Eigen::Index i = 0; i < V_.rows(); ++i) {
            scene.V1.row(i) += motion * jitter();
        }
        scene.T = T_;
        scene.F = F_;
        scene.E = E_;
        if (max_radius > 0) {
            scene.radii.resize(V_.rows());
            for (Eigen::Index i = 0; i < V_.rows(); ++i) {
                scene.radii[i] = i % 3 == 0 ? 0.0 : uniform(0, max_radius);
            }
        }
        return scene;
    }

private:
    Eigen::RowVector3d jitter3() { return Eigen::RowVector3d(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)); }
    Eigen::RowVectorXd jitter()
    {
        Eigen::RowVectorXd x(dim_);
        for (int d = 0; d < dim_; ++d) {
            x[d] = uniform(-1, 1);
        }
        return x;
    }
    void add_tet(int a, int b, int c, int d)
    {
        Eigen::MatrixXi t(1, 4);
        t << a, b, c, d;
        append(T_, t);
    }

    int dim_;
    std::mt19937 rng_;
    Eigen::MatrixXd V_;
    Eigen::MatrixXi T_, F_, E_;
};

/// Every codimension mix the tests cover.
inline std::vector<Scene> all_scenes()
{
    std::vector<Scene> scenes;
    {
        SceneMaker m(3, 1);
        m.tet_cube({ 0, 0, 0 }, 1.0);
        m.tet_cube({ 1.05, 0.1, 0.2 }, 1.0, true);
        m.tet_cube({ 0.3, 1.02, -0.1 }, 0.8);
        scenes.push_back(m.finish("tets", 0.2, 0.0));
    }
    {
        SceneMaker m(3, 2);
        m.sheet({ 0, 0, 0 }, 1.0, 7);
        m.sheet({ 0.05, 0.03, 0.08 }, 1.0, 6);
        scenes.push_back(m.finish("shells", 0.1, 0.02));
    }
    {
        SceneMaker m(3, 3);
        for (int k = 0; k < 6; ++k) {
            m.rod(Eigen::RowVector3d(0.1 * k, 0, 0), 0.15, 10);
        }
        scenes.push_back(m.finish("rods", 0.1, 0.03));
    }
    {
        SceneMaker m(3, 4);
        m.particles(60, 0, 1);
        scenes.push_back(m.finish("particles", 0.1, 0.05));
    }
    {
        SceneMaker m(3, 5);
        m.tet_cube({ 0, 0, 0 }, 0.5, true);
        m.sheet({ -0.1, -0.1, 0.55 }, 0.8, 6);
        for (int k = 0; k < 3; ++k) {
            m.rod(Eigen::RowVector3d(0.2 * k, 0.1, 0.6), 0.12, 8);
        }
        m.particles(25, -0.1, 0.8);
        scenes.push_back(m.finish("mixed", 0.08, 0.02));
    }
    {
        SceneMaker m(2, 6);
        m.loop_2d({ 0, 0 }, 0.5, 16);
        m.loop_2d({ 0.9, 0.1 }, 0.45, 12);
        m.rod(Eigen::RowVector2d(-0.5, 0.6), 0.1, 12);
        m.particles(20, -0.6, 1.4);
        scenes.push_back(m.finish("mixed 2D", 0.08, 0.02));
    }
    return scenes;
}

} // namespace ipc::test
