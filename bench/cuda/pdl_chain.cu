// pdl_chain.cu — what programmatic dependent launch (PDL, sm_90) saves a
// chain of dependent kernels like the runtime's: each step gathers the
// previous step's output through a permutation (out[i] = in[p[i]] + 1), so
// every kernel depends on the one before, as quicksort's MAPs do.  For each
// size: K steps launched back to back on one stream, the device's time per
// step (events around the chain) and the host's, median of 7 rounds, for
//   plain     <<<grid, 256>>>
//   ex        cudaLaunchKernelEx, no attribute (the API's own cost)
//   pdl       cudaLaunchKernelEx with programmatic stream serialization;
//             the kernel waits (griddepcontrol.wait) before any load
//   pdl+trig  the same, and each kernel lets the next launch at its start
//             (griddepcontrol.launch_dependents)
// and checks that every element ends at K.
//
//   nvcc -O2 -std=c++17 -arch=sm_90 -o pdl_chain bench/cuda/pdl_chain.cu && ./pdl_chain
#include <cstdio>
#include <vector>
#include <algorithm>
#include <chrono>

enum { PLAIN, EX, PDL, PDL_TRIG, NVARIANTS };
static const char *const names[NVARIANTS] = { "plain", "ex", "pdl", "pdl+trig" };

template <int V> __global__ void k_step(const int *in, int *out, const int *p, int n)
{
    if (V >= PDL) asm volatile("griddepcontrol.wait;" ::: "memory");
    if (V == PDL_TRIG) asm volatile("griddepcontrol.launch_dependents;");
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[p[i]] + 1;
}

template <int V> static void launch(int grid, const int *in, int *out, const int *p, int n)
{
    if (V == PLAIN) {
        k_step<V><<<grid, 256>>>(in, out, p, n);
        return;
    }
    cudaLaunchConfig_t c = {};
    c.gridDim = grid;
    c.blockDim = 256;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at;
    c.numAttrs = V >= PDL ? 1 : 0;
    cudaLaunchKernelEx(&c, k_step<V>, in, out, p, n);
}

static double now_us()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <int V> static int run(int n, int K, int *a, int *b, const int *p, double *dev_us, double *host_us)
{
    int grid = std::min((n + 255) / 256, 132 * 8);
    std::vector<double> dv, hv;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    int wrong = 0;
    for (int r = 0; r < 8; r++) {   /* round 0: warm-up */
        cudaMemset(a, 0, sizeof(int) * n);
        cudaDeviceSynchronize();
        cudaEventRecord(e0);
        double t0 = now_us();
        for (int k = 0; k < K; k++) launch<V>(grid, k % 2 ? b : a, k % 2 ? a : b, p, n);
        double t1 = now_us();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (r > 0) { dv.push_back(ms * 1000.0 / K); hv.push_back((t1 - t0) / K); }
    }
    std::vector<int> h(n);
    cudaMemcpy(h.data(), K % 2 ? b : a, sizeof(int) * n, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) wrong += h[i] != K;
    if (cudaGetLastError() != cudaSuccess) wrong++;
    *dev_us = median(dv);
    *host_us = median(hv);
    return wrong;
}

int main()
{
    cudaDeviceProp pr;
    cudaGetDeviceProperties(&pr, 0);
    printf("device: %s, %d SMs\n", pr.name, pr.multiProcessorCount);
    const int K = 400, sizes[] = { 1000, 100000, 1000000, 4000000 };
    int nmax = 4000000, wrong = 0;
    int *a, *b, *p;
    cudaMalloc(&a, sizeof(int) * nmax);
    cudaMalloc(&b, sizeof(int) * nmax);
    cudaMalloc(&p, sizeof(int) * nmax);
    printf("%-10s %9s %12s %12s\n", "variant", "n", "device us", "host us");
    for (int n : sizes) {
        std::vector<int> hp(n);   /* a permutation that moves elements between blocks */
        for (int i = 0; i < n; i++) hp[i] = (int)(((long long)i * 7919) % n);
        if (n % 7919 == 0) return 1;
        cudaMemcpy(p, hp.data(), sizeof(int) * n, cudaMemcpyHostToDevice);
        for (int v = 0; v < NVARIANTS; v++) {
            double d, h;
            int w = v == PLAIN ? run<PLAIN>(n, K, a, b, p, &d, &h) : v == EX ? run<EX>(n, K, a, b, p, &d, &h)
                  : v == PDL ? run<PDL>(n, K, a, b, p, &d, &h) : run<PDL_TRIG>(n, K, a, b, p, &d, &h);
            wrong += w;
            printf("%-10s %9d %12.2f %12.2f%s\n", names[v], n, d, h, w ? "  WRONG" : "");
        }
    }
    printf("checks: %d wrong\n", wrong);
    return wrong != 0;
}
