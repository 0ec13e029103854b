#include "run_against_cublas.h"

#include "cublas_index.h"
#include "model_agreement.h"
#include "occupancy_limiter.h"
#include "traffic_model.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace gemmscope {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("RunAgainstCublas", text);
}

const QString kNone = QStringLiteral("—");

// "2.37 GB", "412 MB": decimal units, as the counters count bytes.
QString bytesText(double bytes)
{
    if (bytes >= 1e9)
        return QStringLiteral("%1 GB").arg(bytes / 1e9, 0, 'f', 2);
    if (bytes >= 1e6)
        return QStringLiteral("%1 MB").arg(bytes / 1e6, 0, 'f', 1);
    return QStringLiteral("%1 kB").arg(bytes / 1e3, 0, 'f', 1);
}

QString intensityText(double flopPerByte)
{
    return QStringLiteral("%1 FLOP/B").arg(flopPerByte, 0, 'f', flopPerByte < 10 ? 2 : 1);
}

QString msText(double ms)
{
    return ms > 0 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', 3) : kNone;
}

// A counter's value as shown: its text, or "—" where the run did not measure it.
QString counterText(const RunRecord *run, std::optional<double> (*read)(const protocol::Counters &),
                    QString (*format)(double))
{
    if (!run || !run->counters || run->counters->hasError())
        return kNone;
    const std::optional<double> v = read(*run->counters);
    return v && std::isfinite(*v) && *v >= 0 ? format(*v) : kNone;
}

QString occupancyText(const RunRecord &run)
{
    if (run.occupancy < 0)
        return tr("not reported");
    QString text = tr("%1 % of the SM's warps").arg(run.occupancy * 100, 0, 'f', 0);
    if (run.blocksPerSm > 0)
        text += tr(", %1 blocks per SM").arg(run.blocksPerSm);
    if (const QString limiter = limiterWords(occupancyLimiter(run)); !limiter.isEmpty())
        text += tr(" (limit: %1)").arg(limiter);
    return text;
}

} // namespace

CublasPairing cublasPairingOf(const RunRecord &run, StageId baseline)
{
    return {run.m,      run.n,       run.k,
            run.origin, run.gpuName, run.conditions ? std::optional(run.conditions->regime) : std::nullopt,
            baseline};
}

size_t qHash(const CublasPairing &pairing, size_t seed)
{
    // The size tells most pairs apart; the rest are a few values across a whole session.
    return qHashMulti(
        seed, pairing.m, pairing.n, pairing.k, pairing.gpuName, pairing.regime ? int(*pairing.regime) : -1,
        QByteArrayView(pairing.baseline.key().data(), qsizetype(pairing.baseline.key().size())));
}

StageId cublasStageFor(const RunRecord &run)
{
    const StageInfo *stage = findStage(run.stage.key());
    return stage && stage->precision == Precision::Tf32 ? StageId::CublasTf32 : StageId::CublasFp32;
}

const RunRecord *cublasRunFor(const RunRecord &run, const QList<RunRecord> &runs)
{
    return CublasIndex().nearest(run, cublasStageFor(run), runs, CublasIndex::Itself::Skipped);
}

RunAgainstCublas runAgainstCublas(const RunRecord *run, const RunRecord *cublas, const QString &label)
{
    RunAgainstCublas out;
    if (!run) {
        out.headline = tr("Select a run to set it beside cuBLAS at the same size.");
        return out;
    }
    const StageId baseline = cublasStageFor(*run);
    out.cublasName = baseline == StageId::CublasTf32 ? tr("cuBLAS TF32") : tr("cuBLAS FP32");
    const StageInfo *stage = findStage(run->stage.key());
    if (stage && stage->isLibrary) {
        out.headline =
            tr("The selected run is cuBLAS itself (%1): select a kernel's run to set it beside cuBLAS.")
                .arg(runStageTitleText(*run));
        return out;
    }
    // As the rest of the window names it: the Stage column's short label, then the stage's name.
    out.runName = tr("Stage %1").arg(label);
    const QString named = tr("%1 (%2)").arg(out.runName, runStageTitleText(*run));
    if (!run->isOk()) {
        out.headline = tr("%1 did not finish: it has no time to set beside cuBLAS.").arg(named);
        return out;
    }
    const QString where =
        tr("%1 on %2").arg(run->sizeText(), run->gpuName.isEmpty() ? tr("its GPU") : run->gpuName);
    if (!cublas)
        out.headline = tr("%1 took %2 at %3. This session has no %4 run at that size on that GPU: "
                          "run %4 there (Run > Run Ladder runs it) to set the two side by side.")
                           .arg(named, msText(run->medianMs), where, out.cublasName);
    else
        out.headline =
            tr("%1 took %2 at %3, %4 %5: it reaches %6 % of %4's speed.")
                .arg(named, msText(run->medianMs), where, out.cublasName, msText(cublas->medianMs))
                .arg(run->medianMs > 0 ? 100.0 * cublas->medianMs / run->medianMs : 0.0, 0, 'f', 0);

    // The model's expectations for the run's tiling (the worklog's formulas), where the stage has one.
    std::optional<TrafficEstimate> model;
    if (stage && catalogRefusal(*run).isEmpty())
        model = estimateTraffic(stage->id, paramValuesOf(*run), ProblemSize{run->m, run->n, run->k});

    const auto add = [&out](const QString &quantity, const QString &mine, const QString &theirs,
                            const QString &expected) {
        out.rows.append({quantity, mine, theirs, expected.isEmpty() ? kNone : expected, {}, {}});
    };
    // The last row's two values as numbers, where both runs measured them.
    const auto values = [&out](std::optional<double> mine, std::optional<double> theirs) {
        if (mine && theirs && std::isfinite(*mine) && std::isfinite(*theirs) && *mine >= 0 && *theirs >= 0) {
            out.rows.last().runValue = mine;
            out.rows.last().cublasValue = theirs;
        }
    };
    const auto counter = [](const RunRecord *r, std::optional<double> (*read)(const protocol::Counters &)) {
        return r && r->counters && !r->counters->hasError() ? read(*r->counters) : std::nullopt;
    };
    const QString cublasTime = cublas ? msText(cublas->medianMs) : kNone;
    add(tr("Median time"), msText(run->medianMs), cublasTime, {});
    if (cublas)
        values(run->medianMs, cublas->medianMs);
    add(tr("TFLOP/s"), QString::number(run->tflops, 'f', 1),
        cublas ? QString::number(cublas->tflops, 'f', 1) : kNone, {});
    if (cublas)
        values(run->tflops, cublas->tflops);

    const auto dram = [](const protocol::Counters &c) -> std::optional<double> {
        if (!c.dramReadBytes)
            return std::nullopt;
        return *c.dramReadBytes + c.dramWriteBytes.value_or(0.0);
    };
    const auto l2 = [](const protocol::Counters &c) { return c.l2Bytes; };
    const auto dramIntensity = [](const protocol::Counters &c) { return c.dramIntensity; };
    const auto l2Intensity = [](const protocol::Counters &c) { return c.l2Intensity; };
    add(tr("DRAM traffic (read + write)"), counterText(run, dram, bytesText),
        counterText(cublas, dram, bytesText),
        model ? tr("at least %1 (A and B read once, C written once)").arg(bytesText(model->compulsoryBytes))
              : QString());
    values(counter(run, dram), counter(cublas, dram));
    const double modelL2 = model && model->loadBytes > 0 ? model->loadBytes + model->storeBytes : 0;
    add(tr("L2 traffic"), counterText(run, l2, bytesText), counterText(cublas, l2, bytesText),
        modelL2 > 0 ? tr("%1 (the tiles' loads, C's stores)").arg(bytesText(modelL2)) : QString());
    values(counter(run, l2), counter(cublas, l2));
    // The L2 traffic is what the model predicts, byte for byte: marked as the access table marks its
    // rows (and the per-byte row below, from the same bytes, with it).
    std::optional<bool> l2Agrees;
    if (const std::optional<double> measured = counter(run, l2);
        modelL2 > 0 && measured && std::isfinite(*measured) && *measured >= 0)
        l2Agrees = agreesWithModel(*measured, modelL2);
    out.rows.last().runAgreesWithModel = l2Agrees;
    add(tr("FLOP per DRAM byte"), counterText(run, dramIntensity, intensityText),
        counterText(cublas, dramIntensity, intensityText),
        model && model->compulsoryIntensity > 0
            ? tr("at most %1 (any tiling)").arg(intensityText(model->compulsoryIntensity))
            : QString());
    values(counter(run, dramIntensity), counter(cublas, dramIntensity));
    // The same bytes as the L2 row's, so that the two rows' model and mark say one thing (the
    // model's loads-only intensity beside them read as a second, contradicting model).
    const double modelL2Intensity = modelL2 > 0 ? ProblemSize{run->m, run->n, run->k}.flops() / modelL2 : 0;
    add(tr("FLOP per L2 byte"), counterText(run, l2Intensity, intensityText),
        counterText(cublas, l2Intensity, intensityText),
        modelL2Intensity > 0 ? tr("%1 (the same traffic)").arg(intensityText(modelL2Intensity)) : QString());
    values(counter(run, l2Intensity), counter(cublas, l2Intensity));
    if (modelL2Intensity > 0)
        out.rows.last().runAgreesWithModel = l2Agrees;
    add(tr("Registers per thread"), run->registers > 0 ? QString::number(run->registers) : tr("not reported"),
        cublas ? tr("not reported") : kNone, {});
    add(tr("Occupancy"), occupancyText(*run), cublas ? tr("not reported") : kNone,
        model && model->threadsPerBlock > 0 ? tr("%1 threads per block").arg(model->threadsPerBlock)
                                            : QString());

    out.footnote = tr("Measured: the runs' own timings and counters (CUPTI, over one launch); cuBLAS's "
                      "registers and occupancy are its own kernels', which the runner does not see.");
    if (model)
        out.footnote += QLatin1Char(' ') + tr("Model: the traffic of this stage's tiling by the worklog's "
                                              "formulas, %1.")
                                               .arg(QString::fromStdString(model->formula));
    if (std::any_of(out.rows.cbegin(), out.rows.cend(),
                    [](const RunFactRow &row) { return row.runAgreesWithModel.has_value(); }))
        out.footnote += QLatin1Char(' ') + tr("\u2713 agrees, \u2717 differs: %1's measured L2 traffic is "
                                              "within %2\u00a0% of the model's, or it is not (the access "
                                              "table's rule); FLOP per L2 byte follows from the same bytes.")
                                               .arg(out.runName)
                                               .arg(kModelAgreementTolerance * 100, 0, 'f', 0);
    return out;
}

} // namespace gemmscope
