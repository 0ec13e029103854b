#include "gemm_workspace.h"

#include "cuda_check.h"
#include "gemm_inputs.h"
#include "job_context.h"

namespace gemmscope::runner {

GemmWorkspace::~GemmWorkspace()
{
    if (m_pedantic)
        cublasDestroy(m_pedantic);
    if (m_tf32)
        cublasDestroy(m_tf32);
}

void GemmWorkspace::ensureHandles()
{
    if (!m_pedantic) {
        GEMMSCOPE_CUBLAS(cublasCreate(&m_pedantic));
        GEMMSCOPE_CUBLAS(cublasSetMathMode(m_pedantic, CUBLAS_PEDANTIC_MATH));
    }
    if (!m_tf32) {
        GEMMSCOPE_CUBLAS(cublasCreate(&m_tf32));
        GEMMSCOPE_CUBLAS(cublasSetMathMode(m_tf32, CUBLAS_TF32_TENSOR_OP_MATH));
    }
}

void GemmWorkspace::release()
{
    m_ready = false;
    m_a.reset();
    m_b.reset();
    m_c.reset();
    m_reference.reset();
    m_scratch.reset();
    m_bTransposed.reset();
    m_aPadded.reset();
    m_bPadded.reset();
    m_aRounded.reset();
    m_bRounded.reset();
    m_tf32Inputs = {};
}

float *GemmWorkspace::roundedA()
{
    const size_t count = size_t(m_size.m) * size_t(m_size.k);
    if (m_aRounded.count() != count)
        m_aRounded.allocate(count, "A rounded to TF32");
    return m_aRounded.get();
}

float *GemmWorkspace::roundedB()
{
    const size_t count = size_t(m_size.k) * size_t(m_size.n);
    if (m_bRounded.count() != count)
        m_bRounded.allocate(count, "B rounded to TF32");
    return m_bRounded.get();
}

float *GemmWorkspace::bTransposed(int pitch)
{
    const size_t count = size_t(pitch) * size_t(m_size.n);
    if (m_bTransposed.count() != count)
        m_bTransposed.allocate(count, "B transposed (N x K)");
    return m_bTransposed.get();
}

float *GemmWorkspace::aPadded(int pitch)
{
    const size_t count = size_t(pitch) * size_t(m_size.m);
    if (m_aPadded.count() != count)
        m_aPadded.allocate(count, "A with padded rows (for the tensor map)");
    return m_aPadded.get();
}

float *GemmWorkspace::bPadded(int pitch)
{
    const size_t count = size_t(pitch) * size_t(m_size.k);
    if (m_bPadded.count() != count)
        m_bPadded.allocate(count, "B with padded rows (for the tensor map)");
    return m_bPadded.get();
}

void GemmWorkspace::prepare(const ProblemSize &size, std::uint64_t seed, JobContext &job)
{
    ensureHandles();
    if (m_ready && m_size == size && m_seed == seed)
        return;
    release(); // free first: the old and new matrices together may not fit
    m_size = size;
    m_seed = seed;
    const size_t mk = size_t(size.m) * size_t(size.k), kn = size_t(size.k) * size_t(size.n),
                 mn = size_t(size.m) * size_t(size.n);

    job.progress(protocol::ProgressPhase::Inputs, 0, 2);
    m_a.allocate(mk, "A (M x K)");
    m_b.allocate(kn, "B (K x N)");
    m_c.allocate(mn, "C (M x N)");
    m_reference.allocate(mn, "the cuBLAS reference C");
    m_scratch.allocate(mn, "the verification scratch");
    const std::vector<float> a = makeInput(seed, InputMatrix::A, mk);
    GEMMSCOPE_CUDA(cudaMemcpy(m_a.get(), a.data(), m_a.bytes(), cudaMemcpyHostToDevice));
    job.progress(protocol::ProgressPhase::Inputs, 1, 2);
    job.checkCancelled();
    const std::vector<float> b = makeInput(seed, InputMatrix::B, kn);
    GEMMSCOPE_CUDA(cudaMemcpy(m_b.get(), b.data(), m_b.bytes(), cudaMemcpyHostToDevice));
    job.progress(protocol::ProgressPhase::Inputs, 2, 2);
    job.checkCancelled();

    job.progress(protocol::ProgressPhase::Reference, 0, 1);
    cublasGemm(Precision::Fp32, m_reference.get());
    GEMMSCOPE_CUDA(cudaDeviceSynchronize());
    job.progress(protocol::ProgressPhase::Reference, 1, 1);
    m_ready = true;
}

void GemmWorkspace::cublasGemm(Precision precision, float *c)
{
    ensureHandles();
    // Row-major C = A*B is column-major C^T = B^T * A^T: pass B first, and swap m and n.
    const int m = int(m_size.m), n = int(m_size.n), k = int(m_size.k);
    const float one = 1.0f, zero = 0.0f;
    cublasHandle_t h = precision == Precision::Tf32 ? m_tf32 : m_pedantic;
    GEMMSCOPE_CUBLAS(
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, m_b.get(), n, m_a.get(), k, &zero, c, n));
}

void GemmWorkspace::poisonC()
{
    GEMMSCOPE_CUDA(cudaMemset(m_c.get(), 0xFF, m_c.bytes()));
}

double GemmWorkspace::relativeErrorOfC()
{
    const int count = int(m_c.count()); // the catalog keeps every matrix under 2^31 elements
    const float minusOne = -1.0f;
    float diffNorm = 0, refNorm = 0;
    GEMMSCOPE_CUDA(cudaMemcpy(m_scratch.get(), m_c.get(), m_c.bytes(), cudaMemcpyDeviceToDevice));
    GEMMSCOPE_CUBLAS(cublasSaxpy(m_pedantic, count, &minusOne, m_reference.get(), 1, m_scratch.get(), 1));
    GEMMSCOPE_CUBLAS(cublasSnrm2(m_pedantic, count, m_scratch.get(), 1, &diffNorm));
    GEMMSCOPE_CUBLAS(cublasSnrm2(m_pedantic, count, m_reference.get(), 1, &refNorm));
    if (refNorm == 0)
        return diffNorm == 0 ? 0.0 : double(diffNorm);
    return double(diffNorm) / double(refNorm);
}

void GemmWorkspace::flushL2(long long l2Bytes)
{
    const size_t bytes = size_t(std::max<long long>(l2Bytes, 1 << 20)) * 2;
    if (m_flush.bytes() != bytes)
        m_flush.allocate(bytes, "the L2 flush buffer");
    static unsigned char pattern = 0;
    GEMMSCOPE_CUDA(cudaMemsetAsync(m_flush.get(), ++pattern, bytes));
}

} // namespace gemmscope::runner
