// Black-Scholes baseline: one thread per option, call and put prices
// written to two arrays (the CUDA SDK's layout), float, expf/logf/sqrtf.
#include "bench.cuh"

__device__ inline float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float p = k * (0.31938153f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
    float c = 0.3989422804014327f * expf(-0.5f * d * d) * p;
    return d > 0.0f ? 1.0f - c : c;
}

__global__ void price_kernel(const float *ss, const float *xs, const float *ts, int64_t n,
                             float *calls, float *puts)
{
    const float r = 0.02f, v = 0.3f;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        float s = ss[i], x = xs[i], t = ts[i];
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
        float d2 = d1 - v * sqrt_t;
        float cnd1 = cnd(d1), cnd2 = cnd(d2);
        float e = expf(-r * t);
        calls[i] = s * cnd1 - x * e * cnd2;
        puts[i] = x * e * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}

int main(int argc, char **argv)
{
    int64_t n = bench_arg(argc, argv, 1, "N");
    float *ss = bench_alloc<float>(n), *xs = bench_alloc<float>(n), *ts = bench_alloc<float>(n);
    float *calls = bench_alloc<float>(n), *puts = bench_alloc<float>(n);
    bench_fill(ss, n, [] __device__(int64_t i) { return 5.0f + (float)bench_rem(bench_hash((int32_t)(3 * i)), 1024) * 0.0244140625f; });
    bench_fill(xs, n, [] __device__(int64_t i) { return 1.0f + (float)bench_rem(bench_hash((int32_t)(3 * i + 1)), 1024) * 0.0966796875f; });
    bench_fill(ts, n, [] __device__(int64_t i) { return 0.25f + (float)bench_rem(bench_hash((int32_t)(3 * i + 2)), 1024) * 0.009521484375f; });
    unsigned blocks = (unsigned)std::min<int64_t>((n + 255) / 256, 1 << 20);
    double ms = bench_time([&] { price_kernel<<<blocks, 256>>>(ss, xs, ts, n, calls, puts); });
    printf("checksum: %.9g %.9g %.9g %.9g\n", bench_fsum(n, [=] __device__(int64_t i) -> float { return calls[i]; }),
           bench_fsum(n, [=] __device__(int64_t i) -> float { return puts[i]; }), bench_get(calls, 1), bench_get(puts, 1));
    bench_report(ms, 20.0 * n);   // three inputs read, two outputs written
    return 0;
}
