#include <ipc/ipc.hpp>

#include <cstdio>

int main()
{
    std::printf("ipc %s\n", IPC_VERSION_STRING);
    return 0;
}
