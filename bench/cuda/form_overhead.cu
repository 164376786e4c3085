// form_overhead.cu — what a NESL top-level form pays around its kernels on
// the GPU: the runtime's ways of fetching the device error record and a
// scalar result, each timed the way --repeat times a form (device
// synchronized, host clock, synchronized again), median of many.
//
//   nvcc -O3 -arch=sm_90 -o form_overhead bench/cuda/form_overhead.cu && ./form_overhead
//
// The kernel is a one-block stand-in for the last step of a REDUCE: it
// writes a 4-byte result and leaves the error record unset.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct Rec { int lock, set, code, local; long long it, a, b; const char *name; };   // as NeslDErr

__global__ void k_result(const float *x, int n, float *out, Rec *e)
{
    __shared__ float s[256];
    float v = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) v += x[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int w = 128; w > 0; w /= 2) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        *out = s[0];
        if (s[0] < -1e30f) e->set = 1;   // never: keeps the record live
    }
}

static double now_us() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int main()
{
    const int n = 1000, reps = 2000;
    float *x, *dres, *hmapped;
    Rec *derr, *hrec;
    char *dblock, *hblock;   // [result area 256 B][error record]
    CK(cudaMalloc(&x, n * sizeof(float)));
    CK(cudaMemset(x, 0, n * sizeof(float)));
    CK(cudaMalloc(&dres, sizeof(float)));
    CK(cudaMalloc(&derr, sizeof(Rec)));
    CK(cudaMemset(derr, 0, sizeof(Rec)));
    CK(cudaMallocHost(&hrec, sizeof(Rec)));
    CK(cudaMalloc(&dblock, 256 + sizeof(Rec)));
    CK(cudaMemset(dblock, 0, 256 + sizeof(Rec)));
    CK(cudaMallocHost(&hblock, 256 + sizeof(Rec)));
    CK(cudaHostAlloc(&hmapped, sizeof(float), cudaHostAllocMapped));
    float *dmapped;
    CK(cudaHostGetDevicePointer(&dmapped, hmapped, 0));
    float pageable = 0;
    const char *names[] = {
        "launch + sync (floor)",
        "MAP form now: launch, err copy (pinned), device sync",
        "REDUCE form now: launch, err copy, pageable result copy, device sync",
        "result through pinned: err copy, result copy, stream sync, device sync",
        "one copy of [result | err] (pinned), stream sync, device sync",
        "one copy of [result | err], stream sync (no second sync)",
        "result written to mapped host memory, err copy, stream sync",
    };
    const int nv = sizeof names / sizeof *names;
    for (int v = 0; v < nv; v++) {
        std::vector<double> t;
        for (int r = 0; r < reps + 50; r++) {
            CK(cudaDeviceSynchronize());
            double t0 = now_us();
            switch (v) {
            case 0:
                k_result<<<1, 256>>>(x, n, dres, derr);
                CK(cudaDeviceSynchronize());
                break;
            case 1:
                k_result<<<1, 256>>>(x, n, dres, derr);
                CK(cudaMemcpyAsync(hrec, derr, sizeof(Rec), cudaMemcpyDeviceToHost, 0));
                CK(cudaDeviceSynchronize());
                break;
            case 2:
                k_result<<<1, 256>>>(x, n, dres, derr);
                CK(cudaMemcpyAsync(hrec, derr, sizeof(Rec), cudaMemcpyDeviceToHost, 0));
                CK(cudaMemcpy(&pageable, dres, sizeof(float), cudaMemcpyDeviceToHost));
                CK(cudaDeviceSynchronize());
                break;
            case 3:
                k_result<<<1, 256>>>(x, n, dres, derr);
                CK(cudaMemcpyAsync(hrec, derr, sizeof(Rec), cudaMemcpyDeviceToHost, 0));
                CK(cudaMemcpyAsync(hblock, dres, sizeof(float), cudaMemcpyDeviceToHost, 0));
                CK(cudaStreamSynchronize(0));
                memcpy(&pageable, hblock, sizeof(float));
                CK(cudaDeviceSynchronize());
                break;
            case 4: case 5:
                k_result<<<1, 256>>>(x, n, (float *)dblock, (Rec *)(dblock + 256));
                CK(cudaMemcpyAsync(hblock, dblock, 256 + sizeof(Rec), cudaMemcpyDeviceToHost, 0));
                CK(cudaStreamSynchronize(0));
                memcpy(&pageable, hblock, sizeof(float));
                if (v == 4) CK(cudaDeviceSynchronize());
                break;
            case 6:
                k_result<<<1, 256>>>(x, n, dmapped, derr);
                CK(cudaMemcpyAsync(hrec, derr, sizeof(Rec), cudaMemcpyDeviceToHost, 0));
                CK(cudaStreamSynchronize(0));
                pageable = *(volatile float *)hmapped;
                break;
            }
            double t1 = now_us();
            if (r >= 50) t.push_back(t1 - t0);
        }
        CK(cudaGetLastError());
        std::sort(t.begin(), t.end());
        printf("%6.1f us  (p10 %5.1f, p90 %5.1f)  %s\n", t[t.size() / 2], t[t.size() / 10], t[t.size() * 9 / 10], names[v]);
    }
    // the kernel alone, by events, as the baselines are timed
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> te;
    for (int r = 0; r < reps; r++) {
        CK(cudaEventRecord(a));
        k_result<<<1, 256>>>(x, n, dres, derr);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        te.push_back(ms * 1000);
    }
    std::sort(te.begin(), te.end());
    printf("%6.1f us  the kernel between two events\n", te[te.size() / 2]);
    return 0;
}
