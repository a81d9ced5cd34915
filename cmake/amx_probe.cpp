// Can this machine run AMX tile instructions? Built with the flags llama.cpp gets (-march=native)
// by cmake/PerfgateLlamaCpp.cmake. Exit 0: it can, or the compiler targets no AMX (nothing to turn
// off). Anything else (1, or a fault): the CPU advertises AMX but the kernel or the hypervisor
// does not enable the tile state, and llama.cpp must be built without AMX.
#if defined(__AMX_TILE__) && defined(__linux__)
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

int main() {
    // Linux hands out the tile data state only on request (arch_prctl ARCH_REQ_XCOMP_PERM).
    constexpr long arch_req_xcomp_perm = 0x1023, xfeature_xtiledata = 18;
    if (syscall(SYS_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata) != 0) return 1;
    alignas(64) unsigned char config[64] = {};
    config[0] = 1;    // palette 1
    config[16] = 64;  // tile 0: 64 bytes a row
    config[48] = 16;  // tile 0: 16 rows
    _tile_loadconfig(config);
    _tile_zero(0);
    _tile_release();
    return 0;
}
#else
int main() { return 0; }
#endif
