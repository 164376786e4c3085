// SpMV baseline: cuSPARSE SpMV on a CSR matrix (float), built on the GPU from
// the same generator as bench/progs/spmv.nesl.in: N rows, row i of
// 1 + 4095 / (1 + rem(hash(i), 4096)) entries, entry j from h = hash(i*4099+j).
#include "bench.cuh"
#include <cub/device/device_scan.cuh>
#include <cusparse.h>

#define CKS(call) do { cusparseStatus_t s_ = (call); if (s_ != CUSPARSE_STATUS_SUCCESS) { \
    fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(s_)); exit(1); } } while (0)

__host__ __device__ inline int32_t rowlen(int32_t i) { return 1 + 4095 / (1 + bench_rem(bench_hash(i), 4096)); }

__global__ void fill_rows(int n, const int *rowptr, int *cols, float *vals)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int at = rowptr[i], len = rowptr[i + 1] - at;
        for (int j = 0; j < len; j++) {
            int32_t h = bench_hash((int32_t)((uint32_t)i * 4099u + (uint32_t)j));
            cols[at + j] = bench_rem(h, n);
            vals[at + j] = (float)(bench_rem(h >> 20, 16) - 8) * 0.125f;
        }
    }
}

int main(int argc, char **argv)
{
    int n = (int)bench_arg(argc, argv, 1, "N");
    int *rowptr = bench_alloc<int>(n + 1);
    bench_fill(rowptr, n + 1, [=] __device__(int64_t i) { return i < n ? rowlen((int32_t)i) : 0; });
    size_t tmp_bytes = 0;
    void *tmp = nullptr;
    CK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, rowptr, rowptr, n + 1));
    CK(cudaMalloc(&tmp, tmp_bytes));
    CK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, rowptr, rowptr, n + 1));
    int nnz = bench_get(rowptr, n);
    int *cols = bench_alloc<int>(nnz);
    float *vals = bench_alloc<float>(nnz), *x = bench_alloc<float>(n), *y = bench_alloc<float>(n);
    fill_rows<<<(n + 255) / 256, 256>>>(n, rowptr, cols, vals);
    CKL();
    bench_fill(x, n, [] __device__(int64_t j) { return (float)bench_rem(bench_hash((int32_t)j + 7777777), 16) * 0.25f; });

    cusparseHandle_t h;
    CKS(cusparseCreate(&h));
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy;
    CKS(cusparseCreateCsr(&A, n, n, nnz, rowptr, cols, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CKS(cusparseCreateDnVec(&vx, n, x, CUDA_R_32F));
    CKS(cusparseCreateDnVec(&vy, n, y, CUDA_R_32F));
    float alpha = 1.0f, beta = 0.0f;
    size_t buf_bytes = 0;
    void *buf = nullptr;
    CKS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, &buf_bytes));
    CK(cudaMalloc(&buf, std::max<size_t>(buf_bytes, 1)));
    double ms = bench_time([&] {
        CKS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                         CUSPARSE_SPMV_ALG_DEFAULT, buf));
    });
    int32_t ysum = bench_wsum(n, [=] __device__(int64_t i) -> uint32_t { return (uint32_t)(int32_t)rintf(32.0f * y[i]); });
    printf("checksum: %d %d %d\n", nnz, ysum, (int)rintf(32.0f * bench_get(y, n / 2)));
    // columns and values once, the row offsets, x once, y written once.
    bench_report(ms, 8.0 * nnz + 4.0 * (n + 1) + 8.0 * n);
    return 0;
}
