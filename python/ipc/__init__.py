"""Python bindings of ipc: header-only building blocks for Incremental Potential Contact.

Everything lives in the compiled extension ``ipc._ipc`` and is re-exported
here, with the names of the C++ library (``ipc::point_triangle_distance_squared``
is ``ipc.point_triangle_distance_squared``, ``ipc::BarrierPotential`` is
``ipc.BarrierPotential``, ...). See python/README.md for a tour.

Conventions:
  * positions are float arrays of shape (n, 3) (or (n, 2) for 2D meshes), in metres;
  * index arrays (edges, faces, tetrahedra) are integer arrays (int32 or int64);
  * sparse Hessians come back as ``scipy.sparse.csr_matrix`` (or a
    ``(rows, cols, values)`` tuple when SciPy is missing);
  * bad input raises ``ValueError`` (``InvalidArgumentError``,
    ``DegenerateGeometryError``, ``PenetrationError``); other library errors
    raise ``RuntimeError`` (``Error``).
"""

from . import _ipc
from ._ipc import *  # noqa: F401,F403

__version__ = _ipc.__version__
__all__ = [name for name in dir(_ipc) if not name.startswith("_")]
