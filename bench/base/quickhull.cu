// Quickhull baseline, flattened with Thrust: every recursion level of all
// open hull edges at once.  Points carry their edge number and stay grouped
// by edge in input order; per level: the farthest point of each edge
// (reduce_by_key, the first of equals as NESL's max_index), then each point
// goes to the edge (a, far) or (far, b) it lies strictly left of, or is
// dropped (stable compaction, then a stable sort by the new edge number).
// The few edges live on the host, which re-numbers them between levels.
// Same hull, same order as bench/progs/quickhull.nesl.in: from the leftmost
// point, the upper hull first.
#include "bench.cuh"
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/iterator/zip_iterator.h>
#include <climits>

struct Edge {
    float ax, ay, bx, by;
};

__host__ __device__ inline float side(float px, float py, float ax, float ay, float bx, float by)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

// (side, point index): the larger side, and among equal sides the first point
struct Farther {
    __host__ __device__ thrust::tuple<float, int> operator()(const thrust::tuple<float, int> &a,
                                                             const thrust::tuple<float, int> &b) const
    {
        float sa = thrust::get<0>(a), sb = thrust::get<0>(b);
        if (sa != sb)
            return sa > sb ? a : b;
        return thrust::get<1>(a) < thrust::get<1>(b) ? a : b;
    }
};

struct Hull {
    const float *px, *py;
    int n;
    // scratch, kept between runs
    thrust::device_vector<int> idx, seg, idx2, seg2, keys_out;
    thrust::device_vector<float> sides;
    thrust::device_vector<thrust::tuple<float, int>> far_out;
    thrust::device_vector<Edge> edges_d;
    thrust::device_vector<int> base_d, split_d;
    std::vector<Edge> hull_edges;
    CachingAllocator alloc;

    Hull(const float *px_, const float *py_, int n_) : px(px_), py(py_), n(n_),
        idx(n_), seg(n_), idx2(n_), seg2(n_), keys_out(n_), sides(n_), far_out(n_) {}

    // Assign each point (indices in idx) to new edge base[seg] (left of a->far)
    // or base[seg]+1 (left of far->b), or drop it; keep the order stable.
    int regroup(int m, const Edge *edges, const int *split_far, const int *base)
    {
        const float *X = px, *Y = py;
        int *I = thrust::raw_pointer_cast(idx.data()), *S = thrust::raw_pointer_cast(seg.data());
        int *S2 = thrust::raw_pointer_cast(seg2.data());
        thrust::transform(thrust::cuda::par(alloc), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(m), S2,
                          [=] __device__(int k) -> int {
            int p = I[k], s = S[k], f = split_far[s];
            Edge e = edges[s];
            float x = X[p], y = Y[p];
            if (f < 0) {   // the two first edges: (a, b) and (b, a)
                if (side(x, y, e.ax, e.ay, e.bx, e.by) > 0.f) return 0;
                if (side(x, y, e.bx, e.by, e.ax, e.ay) > 0.f) return 1;
                return INT_MAX;
            }
            float fx = X[f], fy = Y[f];
            if (side(x, y, e.ax, e.ay, fx, fy) > 0.f) return base[s];
            if (side(x, y, fx, fy, e.bx, e.by) > 0.f) return base[s] + 1;
            return INT_MAX;
        });
        auto in = thrust::make_zip_iterator(thrust::make_tuple(seg2.begin(), idx.begin()));
        auto out = thrust::make_zip_iterator(thrust::make_tuple(seg.begin(), idx2.begin()));
        auto end = thrust::copy_if(thrust::cuda::par(alloc), in, in + m, seg2.begin(), out,
                                   [] __device__(int s) { return s != INT_MAX; });
        int kept = (int)(end - out);
        thrust::stable_sort_by_key(thrust::cuda::par(alloc), seg.begin(), seg.begin() + kept, idx2.begin());
        idx.swap(idx2);
        return kept;
    }

    void run()
    {
        int amin = (int)(thrust::min_element(thrust::cuda::par(alloc), px, px + n) - px);
        int amax = (int)(thrust::max_element(thrust::cuda::par(alloc), px, px + n) - px);
        float ax, ay, bx, by;
        CK(cudaMemcpy(&ax, px + amin, 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&ay, py + amin, 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&bx, px + amax, 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&by, py + amax, 4, cudaMemcpyDeviceToHost));
        std::vector<Edge> edges = {{ax, ay, bx, by}, {bx, by, ax, ay}};
        // level 0: every point against the first edge pair
        thrust::sequence(thrust::cuda::par(alloc), idx.begin(), idx.begin() + n);
        thrust::fill(thrust::cuda::par(alloc), seg.begin(), seg.begin() + n, 0);
        edges_d.assign(edges.begin(), edges.end());
        split_d.assign(1, -1);
        base_d.assign(1, 0);
        int m = regroup(n, thrust::raw_pointer_cast(edges_d.data()), thrust::raw_pointer_cast(split_d.data()),
                        thrust::raw_pointer_cast(base_d.data()));
        while (m > 0) {
            // the farthest point of each edge that has points
            const float *X = px, *Y = py;
            const int *I = thrust::raw_pointer_cast(idx.data()), *S = thrust::raw_pointer_cast(seg.data());
            edges_d.assign(edges.begin(), edges.end());
            const Edge *E = thrust::raw_pointer_cast(edges_d.data());
            auto vals = thrust::make_zip_iterator(thrust::make_tuple(
                thrust::make_transform_iterator(thrust::counting_iterator<int>(0), [=] __device__(int k) -> float {
                    Edge e = E[S[k]];
                    return side(X[I[k]], Y[I[k]], e.ax, e.ay, e.bx, e.by);
                }),
                idx.begin()));
            auto ends = thrust::reduce_by_key(thrust::cuda::par(alloc), seg.begin(), seg.begin() + m, vals, keys_out.begin(),
                                              far_out.begin(), thrust::equal_to<int>(), Farther());
            int k = (int)(ends.first - keys_out.begin());
            std::vector<int> keys(k);
            std::vector<thrust::tuple<float, int>> fars(k);
            thrust::copy(keys_out.begin(), keys_out.begin() + k, keys.begin());
            thrust::copy(far_out.begin(), far_out.begin() + k, fars.begin());
            // host: split each edge with points at its far point
            std::vector<int> split(edges.size(), -2), base(edges.size());
            for (int j = 0; j < k; j++)
                split[keys[j]] = thrust::get<1>(fars[j]);
            std::vector<Edge> next;
            std::vector<float> fxy(2 * k);
            for (int j = 0; j < k; j++) {
                CK(cudaMemcpy(&fxy[2 * j], px + split[keys[j]], 4, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(&fxy[2 * j + 1], py + split[keys[j]], 4, cudaMemcpyDeviceToHost));
            }
            for (size_t s = 0, j = 0; s < edges.size(); s++) {
                base[s] = (int)next.size();
                if (split[s] < 0) {
                    next.push_back(edges[s]);
                } else {
                    float fx = fxy[2 * j], fy = fxy[2 * j + 1];
                    j++;
                    next.push_back({edges[s].ax, edges[s].ay, fx, fy});
                    next.push_back({fx, fy, edges[s].bx, edges[s].by});
                }
            }
            split_d.assign(split.begin(), split.end());
            base_d.assign(base.begin(), base.end());
            m = regroup(m, E, thrust::raw_pointer_cast(split_d.data()), thrust::raw_pointer_cast(base_d.data()));
            edges = next;
        }
        hull_edges = edges;
    }
};

int main(int argc, char **argv)
{
    int64_t cand = bench_arg(argc, argv, 1, "CANDIDATES");
    float *cx = bench_alloc<float>(cand), *cy = bench_alloc<float>(cand);
    float *px = bench_alloc<float>(cand), *py = bench_alloc<float>(cand);
    bench_fill(cx, cand, [] __device__(int64_t i) { return (float)(bench_rem(bench_hash((int32_t)(2 * i)), 2047) - 1023); });
    bench_fill(cy, cand, [] __device__(int64_t i) { return (float)(bench_rem(bench_hash((int32_t)(2 * i + 1)), 2047) - 1023); });
    auto in = thrust::make_zip_iterator(thrust::make_tuple(cx, cy));
    auto out = thrust::make_zip_iterator(thrust::make_tuple(px, py));
    int n = (int)(thrust::copy_if(thrust::device, in, in + cand, out, [] __device__(const thrust::tuple<float, float> &p) {
        float x = thrust::get<0>(p), y = thrust::get<1>(p);
        return x * x + y * y < 1046529.0f;
    }) - out);
    Hull hull(px, py, n);
    double ms = bench_time([&] { hull.run(); });
    int32_t sx = 0, sy = 0;
    for (size_t i = 0; i < hull.hull_edges.size(); i++) {
        sx = (int32_t)((uint32_t)sx + (uint32_t)(int32_t)hull.hull_edges[i].ax * (uint32_t)(i + 1));
        sy = (int32_t)((uint32_t)sy + (uint32_t)(int32_t)hull.hull_edges[i].ay * (uint32_t)(i + 1));
    }
    printf("checksum: %d %d %d %d\n", n, (int)hull.hull_edges.size(), sx, sy);
    bench_report(ms, 8.0 * n);   // the points read once (a lower bound)
    return 0;
}
