// A host project that vendors ipc with add_subdirectory: the umbrella header
// and one kernel are enough to check the target, its include paths and its
// link (the installed-package consumer compiles the whole quick start).
#include <ipc/ipc.hpp>

#include <cstdio>

int main()
{
    const double d2 = ipc::point_point_distance_squared(Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(3, 4, 0));
    std::printf("ipc %s: d2 %g\n", IPC_VERSION_STRING, d2);
    return d2 == 25 ? 0 : 1;
}
