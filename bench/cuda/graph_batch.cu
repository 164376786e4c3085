// graph_batch.cu — would the runtime queue a recursion level faster as a CUDA
// graph than as launches?  Between two host waits quicksort queues about 6
// small kernels (849 launches, 138 waits at 10^6).  For K kernels of three
// different functions with a generated functor's 256-byte argument and small
// grids, then a wait, the host's time per segment (median of 7 rounds of
// 200 segments):
//   launch    K programmatic launches (as nesl_cu_launch), then a wait;
//   setparams one chain graph of K kernel nodes instantiated once; each
//             segment sets every node's function, grid and argument
//             (cudaGraphExecKernelNodeSetParams), launches it, waits;
//   capture   the K launches captured, cudaGraphExecUpdate, launch, wait.
//
//   nvcc -O2 -std=c++17 -arch=sm_90 -o graph_batch bench/cuda/graph_batch.cu && ./graph_batch
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#include <chrono>

struct Big { long long w[32]; };
__global__ void k_a(Big b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) ((int *)b.w[0])[i] = i + (int)b.w[1];
}
__global__ void k_b(Big b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) ((int *)b.w[0])[i] += 1;
}
__global__ void k_c(Big b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) ((int *)b.w[0])[i] *= 3;
}
typedef void (*Kfn)(Big, int);
static Kfn fns[3] = { k_a, k_b, k_c };

static double now_us() {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F> static double rounds(F seg) {
    std::vector<double> t;
    for (int r = 0; r < 7; r++) {
        cudaDeviceSynchronize();
        double t0 = now_us();
        for (int s = 0; s < 200; s++) seg(s);
        t.push_back((now_us() - t0) / 200);
    }
    std::sort(t.begin(), t.end());
    return t[3];
}

static void launch(Kfn f, unsigned grid, Big &b, int n, cudaStream_t st) {
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c;
    memset(&c, 0, sizeof c);
    c.gridDim = grid;
    c.blockDim = 256;
    c.attrs = at;
    c.numAttrs = 1;
    c.stream = st;
    cudaLaunchKernelEx(&c, f, b, n);
}

int main() {
    int *a;
    cudaMalloc(&a, (1 << 20) * 4);
    cudaStream_t st;
    cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    Big b;
    memset(&b, 0, sizeof b);
    b.w[0] = (long long)(size_t)a;
    printf("%4s %8s %12s %12s %12s   (us a segment of K kernels and a wait)\n", "K", "n", "launch", "setparams", "capture");
    for (int K : {1, 2, 4, 6, 8, 16}) {
        for (int n : {4096, 65536}) {
            auto fn = [&](int s, int k) { return fns[(s + k) % 3]; };
            auto gridof = [&](int s, int k) { return (unsigned)((n >> (k & 3)) + 255) / 256 + (unsigned)(s & 1); };
            double tl = rounds([&](int s) {
                for (int k = 0; k < K; k++) { b.w[1] = k; launch(fn(s, k), gridof(s, k), b, n, st); }
                cudaStreamSynchronize(st);
            });
            // one chain graph of K kernel nodes, instantiated once
            cudaGraph_t g;
            cudaGraphCreate(&g, 0);
            std::vector<cudaGraphNode_t> nodes(K);
            int nn = n;
            for (int k = 0; k < K; k++) {
                cudaKernelNodeParams p;
                memset(&p, 0, sizeof p);
                void *args[2] = { &b, &nn };
                p.func = (void *)fn(0, k);
                p.gridDim = gridof(0, k);
                p.blockDim = 256;
                p.kernelParams = args;
                cudaGraphAddKernelNode(&nodes[k], g, k ? &nodes[k - 1] : nullptr, k ? 1 : 0, &p);
            }
            cudaGraphExec_t ge;
            if (cudaGraphInstantiate(&ge, g, 0) != cudaSuccess) { printf("instantiate failed\n"); return 1; }
            double ts = rounds([&](int s) {
                for (int k = 0; k < K; k++) {
                    b.w[1] = k;
                    cudaKernelNodeParams p;
                    memset(&p, 0, sizeof p);
                    void *args[2] = { &b, &nn };
                    p.func = (void *)fn(s, k);
                    p.gridDim = gridof(s, k);
                    p.blockDim = 256;
                    p.kernelParams = args;
                    cudaError_t e = cudaGraphExecKernelNodeSetParams(ge, nodes[k], &p);
                    if (e != cudaSuccess) { printf("setparams: %s\n", cudaGetErrorString(e)); exit(1); }
                }
                cudaGraphLaunch(ge, st);
                cudaStreamSynchronize(st);
            });
            cudaGraphExec_t ce = nullptr;
            double tc = rounds([&](int s) {
                cudaGraph_t cg;
                cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal);
                for (int k = 0; k < K; k++) { b.w[1] = k; launch(fn(s, k), gridof(s, k), b, n, st); }
                cudaStreamEndCapture(st, &cg);
                if (!ce) cudaGraphInstantiate(&ce, cg, 0);
                else {
                    cudaGraphExecUpdateResultInfo info;
                    if (cudaGraphExecUpdate(ce, cg, &info) != cudaSuccess) {
                        cudaGetLastError();
                        cudaGraphExecDestroy(ce);
                        cudaGraphInstantiate(&ce, cg, 0);
                    }
                }
                cudaGraphDestroy(cg);
                cudaGraphLaunch(ce, st);
                cudaStreamSynchronize(st);
            });
            printf("%4d %8d %12.2f %12.2f %12.2f\n", K, n, tl, ts, tc);
            cudaGraphExecDestroy(ge);
            cudaGraphExecDestroy(ce);
            cudaGraphDestroy(g);
        }
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("final: %s\n", cudaGetErrorString(e));
    return 0;
}
