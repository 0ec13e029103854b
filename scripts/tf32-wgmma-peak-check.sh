#!/usr/bin/env bash
# Optional cross-check of the runner's Hopper TF32 roof without the runner: builds the wgmma peak
# microbenchmark exactly as app/runner/ceilings.cpp holds it (its source is cut out of that file)
# with nvcc for sm_90a, launches it as runPeakKernel does (one block of two warpgroups per SM,
# four waves) and prints the best of five launches in TFLOP/s. Needs an sm_90 GPU.
#   scripts/tf32-wgmma-peak-check.sh [iterations]     (default 4096, the runner's)
# COMPILE_ONLY=1 builds it and prints ptxas's registers without running it (no GPU needed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
iterations=${1:-4096}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}

# The kernel: the raw string between `kTf32WgmmaSource = R"cuda(` and `)cuda"`.
awk '/kTf32WgmmaSource = R"cuda\(/{on=1; next} on && /^\)cuda"/{exit} on' "$root/app/runner/ceilings.cpp" \
    > "$work/peak_kernel.cuh"
grep -q gemmscope_tf32_wgmma_peak "$work/peak_kernel.cuh" || { echo "kernel source not found" >&2; exit 1; }

cat > "$work/check.cu" <<'EOF'
#include "peak_kernel.cuh"
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    std::printf("%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)
int main(int argc, char **argv)
{
    const int iterations = std::atoi(argv[1]);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int perSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, gemmscope_tf32_wgmma_peak, 256, 0));
    const int blocks = prop.multiProcessorCount * (perSm > 0 ? perSm : 1) * 4;
    float *out;
    CHECK(cudaMalloc(&out, size_t(blocks) * 256 * sizeof(float)));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    gemmscope_tf32_wgmma_peak<<<blocks, 256>>>(out, iterations); // warm-up
    CHECK(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int r = 0; r < 5; ++r) {
        CHECK(cudaEventRecord(start));
        gemmscope_tf32_wgmma_peak<<<blocks, 256>>>(out, iterations);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        best = ms < best ? ms : best;
    }
    // Two warpgroups a block, four wgmma m64n256k8 (2 x 64 x 256 x 8 FLOP) an iteration.
    const double flops = 2.0 * 64 * 256 * 8 * 4 * double(iterations) * 2 * blocks;
    std::printf("%s: %d SMs, %d block(s)/SM, %d blocks, best %.3f ms: %.1f TFLOP/s TF32 (wgmma m64n256k8)\n",
                prop.name, prop.multiProcessorCount, perSm, blocks, best, flops / (best * 1e-3) / 1e12);
    return 0;
}
EOF
if ! "$nvcc" -std=c++17 -gencode arch=compute_90a,code=sm_90a -O3 --ptxas-options=-v -I"$root/kernels/cuda" \
    -I"$work" -o "$work/check" "$work/check.cu" > "$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    exit 1
fi
grep -E "registers|spill|serialized" "$work/build.log" || true
[ "${COMPILE_ONLY:-0}" = 1 ] || "$work/check" "$iterations"
