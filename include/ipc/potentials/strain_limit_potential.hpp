#pragma once
/// @file
/// The isotropic strain-limit potential over a set of triangles (C-IPC
/// section 4.1): the sum over triangles t of
///     kappa_s,t * rest area_t * thickness_t * psi(F_t(x))
/// with psi the clamped barrier on the singular values of the deformation
/// gradient (isotropic_strain_limit.hpp) between the threshold s_hat and the
/// limit s of the triangle's StrainLimitParameters.
///
/// Units: joules (gradients in newtons, Hessians in newtons per metre), with
/// positions in metres and kappa_s in pascals. Gradients are dense (3 n
/// entries, x y z per vertex), Hessians sparse 3n x 3n. Parallel, lock-free,
/// bit-identical for any thread count. Every evaluation throws
/// ipc::invalid_argument when a triangle's largest singular value reaches
/// its limit (filter line-search steps with is_strain_feasible first).

#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>
#include <ipc/potentials/stencil_assembly.hpp>
#include <ipc/strain_limit/isotropic_strain_limit.hpp>
#include <ipc/strain_limit/triangle_rest_shape.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <array>
#include <cmath>
#include <utility>
#include <vector>

namespace ipc {

/// Isotropic strain-limit potential of a triangle set; see the file comment.
class StrainLimitPotential {
public:
    /// Triangles `faces` (k x 3 vertex indices) of a mesh with rest positions
    /// `rest_positions` (n x 3, m), all with the same parameters.
    /// Throws ipc::invalid_argument for bad sizes, indices, coordinates or
    /// parameters and ipc::degenerate_geometry for a zero-area rest triangle.
    StrainLimitPotential(const Eigen::Ref<const Eigen::MatrixXd>& rest_positions,
                         const Eigen::Ref<const Eigen::MatrixXi>& faces,
                         const StrainLimitParameters<double>& parameters = {})
        : StrainLimitPotential(rest_positions.rows(), faces, rest_shapes_of(rest_positions, faces),
                               std::vector<StrainLimitParameters<double>>(std::size_t(faces.rows()), parameters))
    {
    }

    /// Triangles with their own rest shapes and parameters (one entry per row
    /// of faces) over a mesh of num_vertices vertices. Throws
    /// ipc::invalid_argument for mismatched sizes, out-of-range indices or
    /// invalid parameters.
    StrainLimitPotential(Index num_vertices, const Eigen::Ref<const Eigen::MatrixXi>& faces,
                         std::vector<TriangleRestShape<double>> rest_shapes,
                         std::vector<StrainLimitParameters<double>> parameters)
        : num_vertices_(num_vertices)
        , faces_(faces)
        , rest_shapes_(std::move(rest_shapes))
        , parameters_(std::move(parameters))
    {
        require(faces_.cols() == 3 || faces_.rows() == 0, "StrainLimitPotential: faces must have 3 columns, got ",
                faces_.cols());
        require(rest_shapes_.size() == std::size_t(faces_.rows()), "StrainLimitPotential: ", rest_shapes_.size(),
                " rest shapes for ", faces_.rows(), " faces");
        require(parameters_.size() == std::size_t(faces_.rows()), "StrainLimitPotential: ", parameters_.size(),
                " parameter sets for ", faces_.rows(), " faces");
        for (Index f = 0; f < faces_.rows(); ++f) {
            for (int j = 0; j < 3; ++j) {
                require(faces_(f, j) >= 0 && faces_(f, j) < num_vertices_, "StrainLimitPotential: face ", f,
                        " references vertex ", faces_(f, j), " but there are ", num_vertices_, " vertices");
            }
            parameters_[std::size_t(f)].validate();
        }
        // The triangles never change: colour them and build the Hessian's
        // sparsity pattern once.
        assembly_ = detail::StencilAssembly(num_vertices_, faces_.rows(), [&](Index t) {
            detail::StencilVertices s;
            s.size = 3;
            for (int j = 0; j < 3; ++j) {
                s.vertices[std::size_t(j)] = faces_(t, j);
            }
            return s;
        });
        assembly_.build_sparsity_pattern();
    }

    /// Number of triangles.
    Index num_triangles() const { return faces_.rows(); }
    /// Triangles (k x 3 vertex indices).
    const Eigen::MatrixXi& faces() const { return faces_; }
    /// Rest shape of each triangle.
    const std::vector<TriangleRestShape<double>>& rest_shapes() const { return rest_shapes_; }
    /// Parameters of each triangle (limit, threshold, thickness, kappa_s).
    const std::vector<StrainLimitParameters<double>>& parameters() const { return parameters_; }

    /// Sets kappa_s (pascals, finite, >= 0) of every triangle.
    void set_stiffness(double stiffness)
    {
        require(std::isfinite(stiffness) && stiffness >= 0,
                "StrainLimitPotential: stiffness must be finite and non-negative, got ", stiffness);
        for (auto& p : parameters_) {
            p.stiffness = stiffness;
        }
    }

    /// Strain-limit energy (J) at positions V (n x 3, m).
    double operator()(const Eigen::Ref<const Eigen::MatrixXd>& V) const
    {
        check(V, "StrainLimitPotential");
        return assembly().sum([&](Index t) {
            const auto x = corners(V, t);
            return isotropic_strain_limit_energy(x[0], x[1], x[2], rest_shapes_[std::size_t(t)],
                                                 parameters_[std::size_t(t)]);
        });
    }

    /// Gradient (3 n entries, N) at positions V.
    Eigen::VectorXd gradient(const Eigen::Ref<const Eigen::MatrixXd>& V) const
    {
        check(V, "StrainLimitPotential::gradient");
        return assembly().gradient([&](Index t, Vector<double, 12>& out) {
            const auto x = corners(V, t);
            out.head<9>() = isotropic_strain_limit_gradient(x[0], x[1], x[2], rest_shapes_[std::size_t(t)],
                                                            parameters_[std::size_t(t)]);
        });
    }

    /// Sparse Hessian (3n x 3n, N/m) at positions V; with projection other
    /// than none each triangle's block is projected to PSD in F-space on its
    /// analytic eigensystem. With SparseTriangle::lower or upper, only that
    /// triangle is stored (its pattern is built on the first such call,
    /// which must not run on several threads at once).
    Eigen::SparseMatrix<double> hessian(const Eigen::Ref<const Eigen::MatrixXd>& V,
                                        PSDProjection projection = PSDProjection::none,
                                        SparseTriangle triangle = SparseTriangle::full) const
    {
        Eigen::SparseMatrix<double> H;
        hessian(V, projection, H, triangle);
        return H;
    }

    /// The same, written into H, whose storage is reused when large enough.
    void hessian(const Eigen::Ref<const Eigen::MatrixXd>& V, PSDProjection projection,
                 Eigen::SparseMatrix<double>& H, SparseTriangle triangle = SparseTriangle::full) const
    {
        check(V, "StrainLimitPotential::hessian");
        assembly().hessian(
            [&](Index t, Matrix<double, 12, 12>& out) {
                const auto x = corners(V, t);
                out.topLeftCorner<9, 9>() = isotropic_strain_limit_hessian(
                    x[0], x[1], x[2], rest_shapes_[std::size_t(t)], parameters_[std::size_t(t)], projection);
            },
            H, triangle);
    }

private:
    static std::vector<TriangleRestShape<double>> rest_shapes_of(const Eigen::Ref<const Eigen::MatrixXd>& rest,
                                                                 const Eigen::Ref<const Eigen::MatrixXi>& faces)
    {
        require(rest.cols() == 3, "StrainLimitPotential: rest positions must have 3 columns, got ", rest.cols());
        require(faces.cols() == 3 || faces.rows() == 0, "StrainLimitPotential: faces must have 3 columns, got ",
                faces.cols());
        std::vector<TriangleRestShape<double>> shapes;
        shapes.reserve(std::size_t(faces.rows()));
        for (Index f = 0; f < faces.rows(); ++f) {
            Eigen::Vector3d X[3];
            for (int j = 0; j < 3; ++j) {
                const int v = faces(f, j);
                require(v >= 0 && v < rest.rows(), "StrainLimitPotential: face ", f, " references vertex ", v,
                        " but there are ", rest.rows(), " vertices");
                X[j] = rest.row(v).transpose();
            }
            shapes.push_back(triangle_rest_shape(X[0], X[1], X[2]));
        }
        return shapes;
    }

    void check(const Eigen::Ref<const Eigen::MatrixXd>& V, const char* who) const
    {
        require(V.rows() == num_vertices_ && V.cols() == 3, who, ": positions are ", V.rows(), " x ", V.cols(),
                ", expected ", num_vertices_, " x 3");
        require(all_finite(V), who, ": positions contain NaN or infinite coordinates");
    }

    std::array<Eigen::Vector3d, 3> corners(const Eigen::Ref<const Eigen::MatrixXd>& V, Index t) const
    {
        std::array<Eigen::Vector3d, 3> x;
        for (int j = 0; j < 3; ++j) {
            x[std::size_t(j)] = V.row(faces_(t, j)).transpose();
        }
        return x;
    }

    const detail::StencilAssembly& assembly() const { return assembly_; }

    Index num_vertices_ = 0;
    Eigen::MatrixXi faces_;
    std::vector<TriangleRestShape<double>> rest_shapes_;
    std::vector<StrainLimitParameters<double>> parameters_;
    detail::StencilAssembly assembly_;
};

} // namespace ipc
