// Mandelbrot baseline: one thread per pixel, escape counts (at most 256) of
// an N x N grid over [-2, 0.5] x [-1.25, 1.25] written as ints.
#include "bench.cuh"

__global__ void mandel_kernel(int n, int *img)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    float cr = -2.0f + 2.5f * (float)j / (float)n, ci = -1.25f + 2.5f * (float)i / (float)n;
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (!(k >= 256 || zr * zr + zi * zi > 4.0f)) {
        float nr = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = nr;
        k++;
    }
    img[(int64_t)i * n + j] = k;
}

int main(int argc, char **argv)
{
    int n = (int)bench_arg(argc, argv, 1, "N");
    int64_t np = (int64_t)n * n;
    int *img = bench_alloc<int>(np);
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    double ms = bench_time([&] { mandel_kernel<<<grid, block>>>(n, img); });
    printf("checksum: %d %d\n", bench_wsum(np, [=] __device__(int64_t i) -> uint32_t { return (uint32_t)img[i]; }),
           bench_wsum(np, [=] __device__(int64_t i) -> uint32_t { return (uint32_t)(img[i] == 256); }));
    bench_report(ms, 4.0 * np);   // the image written once
    return 0;
}
