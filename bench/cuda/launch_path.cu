// launch_path.cu — what the host pays a launch by each path to the driver,
// for the runtime's nesl_cu_launch (a programmatic launch of a generated
// functor, about 256 bytes of arguments):
//   runtime   cudaLaunchKernelEx (the C++ template: an argument array, the
//             function found from its host stub each call), as now;
//   driver    cuLaunchKernelEx through cudaGetDriverEntryPoint, with the
//             CUfunction found once (cudaGetFuncBySymbol);
//   chevron   k<<<grid, block>>>(...), not programmatic.
// R launches back to back, host time a launch, median of 7 rounds; the
// device keeps pace (host_cost.cu), so this is the recursion's floor.
//
//   nvcc -O2 -std=c++17 -arch=sm_90 -o launch_path bench/cuda/launch_path.cu && ./launch_path
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda.h>

struct Big { long long w[32]; };
__global__ void k_big(Big b, long long n)
{
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (b.w[threadIdx.x & 31] == 12345 && n < 0) ((int *)b.w[0])[0] = 0;
}

static double now_us()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F> static double per_launch(int reps, F f)
{
    std::vector<double> t;
    for (int r = 0; r < 7; r++) {
        cudaDeviceSynchronize();
        double t0 = now_us();
        for (int i = 0; i < reps; i++) f(i);
        t.push_back((now_us() - t0) / reps);
        cudaDeviceSynchronize();
    }
    std::sort(t.begin(), t.end());
    return t[3];
}

typedef CUresult (*LaunchEx)(const CUlaunchConfig *, CUfunction, void **, void **);

int main()
{
    const int R = 2000;
    Big b;
    memset(&b, 0, sizeof b);
    long long n = 7;
    double rt = per_launch(R, [&](int i) {
        cudaLaunchAttribute at[1];
        at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        at[0].val.programmaticStreamSerializationAllowed = 1;
        cudaLaunchConfig_t c;
        memset(&c, 0, sizeof c);
        c.gridDim = 4 + (i & 3);
        c.blockDim = 256;
        c.attrs = at;
        c.numAttrs = 1;
        cudaLaunchKernelEx(&c, k_big, b, n);
        cudaGetLastError();
    });
    void *fp = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", &fp, 12000, cudaEnableDefault, &q) != cudaSuccess || !fp) {
        printf("no cuLaunchKernelEx entry point\n");
        return 1;
    }
    LaunchEx launch = (LaunchEx)fp;
    cudaFunction_t fn;
    if (cudaGetFuncBySymbol(&fn, (const void *)k_big) != cudaSuccess) { printf("no function\n"); return 1; }
    double dr = per_launch(R, [&](int i) {
        CUlaunchAttribute at[1];
        at[0].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        at[0].value.programmaticStreamSerializationAllowed = 1;
        CUlaunchConfig c;
        memset(&c, 0, sizeof c);
        c.gridDimX = 4 + (i & 3);
        c.gridDimY = c.gridDimZ = 1;
        c.blockDimX = 256;
        c.blockDimY = c.blockDimZ = 1;
        c.attrs = at;
        c.numAttrs = 1;
        c.hStream = 0;
        void *args[2] = { &b, &n };
        launch(&c, (CUfunction)fn, args, nullptr);
    });
    double ch = per_launch(R, [&](int i) {
        k_big<<<4 + (i & 3), 256>>>(b, n);
        cudaGetLastError();
    });
    cudaError_t e = cudaDeviceSynchronize();
    printf("us a launch (host), %d back to back, median of 7:\n", R);
    printf("  runtime cudaLaunchKernelEx   %6.2f\n  driver cuLaunchKernelEx      %6.2f\n  chevron <<<>>>               %6.2f\n", rt, dr, ch);
    printf("final: %s\n", cudaGetErrorString(e));
    return 0;
}
