#include "tensor_map.h"

#include "runner_error.h"

#include <algorithm>

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

namespace gemmscope::runner {

static_assert(sizeof(TensorMapBytes) == sizeof(CUtensorMap) &&
                  alignof(TensorMapBytes) >= alignof(CUtensorMap),
              "TensorMapBytes stands for CUtensorMap in kernel arguments");

namespace {

PFN_cuTensorMapEncodeTiled_v12000 encodeFunction()
{
    // Looked up once; the driver's function outlives the process's use of it.
    static const PFN_cuTensorMapEncodeTiled_v12000 function = [] {
        void *entry = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        const cudaError_t status = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000,
                                                                    cudaEnableDefault, &found);
        return status == cudaSuccess && found == cudaDriverEntryPointSuccess
                   ? reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(entry)
                   : nullptr;
    }();
    if (!function)
        throw RunnerError(
            ErrorKind::LaunchError,
            QStringLiteral("The CUDA driver has no cuTensorMapEncodeTiled (it arrived with CUDA "
                           "12 drivers), so this TMA stage cannot be launched here."));
    return function;
}

} // namespace

int tensorMapPitch(int k)
{
    return (k + 3) / 4 * 4;
}

TensorMapBytes encodeTileMap(const float *base, int rows, int cols, int pitch, int boxRows, int boxCols,
                             bool tf32)
{
    TensorMapBytes map;
    const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)}; // innermost first
    const cuuint64_t strides[1] = {cuuint64_t(pitch) * sizeof(float)};
    const cuuint32_t box[2] = {cuuint32_t(boxCols), cuuint32_t(boxRows)}, elementStrides[2] = {1, 1};
    const CUresult status = encodeFunction()(
        reinterpret_cast<CUtensorMap *>(&map),
        tf32 ? CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
        const_cast<float *>(base), dims, strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (status != CUDA_SUCCESS)
        throw RunnerError(
            ErrorKind::LaunchError,
            QStringLiteral("The CUDA driver refused the tensor map of a %1 x %2 matrix (row pitch %3 "
                           "floats) in boxes of %4 x %5 floats (CUresult %6).")
                .arg(rows)
                .arg(cols)
                .arg(pitch)
                .arg(boxRows)
                .arg(boxCols)
                .arg(int(status)));
    return map;
}

OperandMaps encodeOperandMaps(const StageInfo &stage, const ParamValues &params, const float *a,
                              const float *b, const ProblemSize &size, int pitchA, int pitchB, bool roundTf32)
{
    const TensorMapOperands &maps = *stage.tensorMaps;
    const int m = int(size.m), n = int(size.n), k = int(size.k);
    const bool copyRoundsA =
        roundTf32 && !maps.aCopyRoundsParam.empty() && paramValue(params, maps.aCopyRoundsParam, 1) == 0;
    // In a cluster each block copies its share of A's tile rows (and multicasts it to the others).
    const int cluster =
        stage.clusterParam.empty() ? 1 : std::max(1, paramValue(params, stage.clusterParam, 1));
    const TensorMapBytes mapA = encodeTileMap(
        a, m, k, pitchA, paramValue(params, maps.aBoxRowsParam) / cluster, maps.boxK, copyRoundsA);
    if (maps.rowMajorB)
        return {mapA, encodeTileMap(b, k, n, pitchB, maps.boxK, maps.bBoxColumns)};
    return {mapA, encodeTileMap(b, n, k, pitchA, paramValue(params, maps.btBoxRowsParam), maps.boxK)};
}

} // namespace gemmscope::runner
