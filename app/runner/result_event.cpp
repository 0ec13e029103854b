#include "result_event.h"

namespace gemmscope::runner {

protocol::VerifyResult verifyPassed(double relError, double tolerance)
{
    protocol::VerifyResult verify;
    verify.reference = QStringLiteral("cublas_fp32_pedantic");
    verify.relError = relError;
    verify.tolerance = tolerance;
    verify.passed = true;
    return verify;
}

protocol::VerifyResult verifySkipped()
{
    protocol::VerifyResult verify;
    verify.reference = QStringLiteral("cublas_fp32_pedantic");
    verify.skipped = true; // passed stays null
    return verify;
}

protocol::ResultEvent resultEvent(const RunFacts &facts)
{
    const StageInfo &stage = *facts.stage;
    protocol::ResultEvent result;
    result.stage = QString::fromStdString(stage.key);
    result.params = facts.params;
    result.size = facts.size;
    result.seed = double(facts.seed);
    result.gpu = facts.gpu;
    result.timing = timingResult(facts.stats, facts.timing);
    result.tflops = facts.size.tflopsAt(facts.stats.medianMs);
    result.verify = facts.verify;
    result.smClockMhz = facts.smClockMhz;
    result.smClockSource = protocol::valueName(protocol::ClockSource::Nominal);
    result.timestamp = facts.finishedAt.toUTC().toString(Qt::ISODate);
    if (!stage.isLibrary) {
        result.compiled = facts.compiled;
        result.build =
            facts.build.isEmpty() ? protocol::valueName(protocol::BuildKind::Release) : facts.build;
        result.tf32Rounding = facts.tf32Rounding;
        if (facts.maxBlocksPerSm > 0)
            result.maxBlocksPerSm = facts.maxBlocksPerSm;
        if (facts.smemCarveout >= 0)
            result.smemCarveout = facts.smemCarveout;
    }
    result.counters = facts.counters;
    result.conditions = facts.conditions;
    result.baseline = facts.baseline;
    return result;
}

} // namespace gemmscope::runner
