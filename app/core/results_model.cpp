#include "results_model.h"

#include "jargon_text.h"
#include "occupancy_limiter.h"
#include "plain_text.h"
#include "run_against_cublas.h"
#include "stage_catalog.h"
#include "stage_names.h"
#include "time_text.h"

#include <array>
#include <cmath>
#include <utility>

namespace gemmscope {

namespace {

QString failureText(const RunRecord &r)
{
    return QStringLiteral("%1: %2").arg(r.errorKind, r.errorMessage);
}

int smemBytes(const RunRecord &r)
{
    return r.registers >= 0 || r.staticSmemBytes > 0 ? r.staticSmemBytes + launchDynamicSmemBytes(r) : 0;
}

bool computesInTf32(const RunRecord &r)
{
    const StageInfo *stage = findStage(r.stage.key());
    return stage && stage->precision == Precision::Tf32;
}

} // namespace

ResultsModel::ResultsModel(Session *session, QObject *parent)
    : QAbstractTableModel(parent), m_session(session)
{
    connect(session, &Session::aboutToReset, this, [this] {
        m_cublas.invalidate();
        beginResetModel();
    });
    connect(session, &Session::reset, this, [this] {
        m_cublas.invalidate();
        endResetModel();
    });
    connect(session, &Session::runAboutToBeAdded, this, [this](int row) {
        m_cublas.invalidate();
        beginInsertRows({}, row, row);
    });
    // A cuBLAS run changes the % of cuBLAS of the other rows; another run only its own row (telling
    // every row of a 10,000-run session took the table milliseconds per run).
    const auto isReference = [this](int row) { return isCublasRun(m_session->runs().at(row)); };
    connect(session, &Session::runAdded, this, [this, isReference](int row) {
        m_cublas.invalidate();
        endInsertRows();
        if (isReference(row))
            emit dataChanged(index(0, PercentOfCublasColumn),
                             index(rowCount() - 1, PercentOfCublasTf32Column));
    });
    connect(session, &Session::runChanged, this, [this, isReference](int row) {
        m_cublas.invalidate();
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        if (isReference(row))
            emit dataChanged(index(0, PercentOfCublasColumn),
                             index(rowCount() - 1, PercentOfCublasTf32Column));
    });
    connect(session, &Session::runAboutToBeRemoved, this, [this](int row) {
        m_cublas.invalidate();
        beginRemoveRows({}, row, row);
    });
    connect(session, &Session::runRemoved, this, [this] {
        m_cublas.invalidate();
        endRemoveRows();
    });
}

int ResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_session->runs().size());
}

int ResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const RunRecord *ResultsModel::cublasReference(const RunRecord &record, StageId baseline) const
{
    return m_cublas.nearest(record, baseline, m_session->runs(), CublasIndex::Itself::Counted);
}

std::optional<double> ResultsModel::percentOfCublas(const RunRecord &record) const
{
    if (!record.isOk() || record.medianMs <= 0)
        return std::nullopt;
    const RunRecord *reference = cublasReference(record);
    if (!reference)
        return std::nullopt;
    return 100.0 * reference->medianMs / record.medianMs;
}

std::optional<double> ResultsModel::percentOfCublasTf32(const RunRecord &record) const
{
    if (!record.isOk() || record.medianMs <= 0 || !computesInTf32(record))
        return std::nullopt;
    const RunRecord *reference = cublasReference(record, StageId::CublasTf32);
    if (!reference)
        return std::nullopt;
    return 100.0 * reference->medianMs / record.medianMs;
}

void ResultsModel::setRunCode(RunCode code)
{
    m_runCode = std::move(code);
    if (rowCount() > 0)
        emit dataChanged(index(0, CodeColumn), index(rowCount() - 1, CodeColumn));
}

namespace {

// The stable names of the columns in settings, in Column order.
constexpr std::array<const char *, ResultsModel::ColumnCount> kColumnKeys{"code",
                                                                          "stage",
                                                                          "parameters",
                                                                          "median",
                                                                          "spread",
                                                                          "trust",
                                                                          "tflops",
                                                                          "percentOfCublas",
                                                                          "percentOfCublasTf32",
                                                                          "registers",
                                                                          "sharedMemory",
                                                                          "occupancy",
                                                                          "relError",
                                                                          "smClock",
                                                                          "size",
                                                                          "origin",
                                                                          "gpu",
                                                                          "time",
                                                                          "status"};

// "4096³" where the three sizes agree (the usual square problem), else "8192x4096x6144".
QString compactSize(const RunRecord &r)
{
    return r.m <= 0 ? QString() : r.sizeText();
}

// A cell that has nothing to say, told apart from a number at a glance (its tooltip says why).
const QString kNothing = QStringLiteral("—");

// A measured run's p20–p80 range: none for a published time (one number) or a run without samples.
bool hasSpread(const RunRecord &r)
{
    return r.isOk() && r.origin != QLatin1String("worklog") && r.count > 0 && r.p80Ms > r.p20Ms &&
           r.medianMs > 0;
}

// Compiled resources (registers, shared memory, occupancy) are known once the stage compiled;
// cuBLAS reports none of its own kernels'.
bool resourcesKnown(const RunRecord &r)
{
    return r.registers >= 0;
}

} // namespace

bool ResultsModel::isNumberColumn(int column)
{
    switch (column) {
    case MedianColumn:
    case SpreadColumn:
    case TflopsColumn:
    case PercentOfCublasColumn:
    case PercentOfCublasTf32Column:
    case RegistersColumn:
    case SmemColumn:
    case OccupancyColumn:
    case RelErrorColumn:
    case ClockColumn:
        return true;
    default:
        return false;
    }
}

QString ResultsModel::columnKey(int column)
{
    return column >= 0 && column < ColumnCount ? QLatin1String(kColumnKeys[std::size_t(column)]) : QString();
}

int ResultsModel::columnOfKey(const QString &key)
{
    for (int column = 0; column < ColumnCount; ++column)
        if (key == QLatin1String(kColumnKeys[std::size_t(column)]))
            return column;
    return -1;
}

QVariant ResultsModel::display(const RunRecord &r, int column) const
{
    const bool ok = r.isOk();
    switch (column) {
    case CodeColumn:
        return codeOf(r);
    case StageColumn:
        return runStageTitleText(r);
    case ParametersColumn:
        return formatRunParams(r);
    case SizeColumn:
        return compactSize(r);
    case MedianColumn:
        // A running run shows the runner's median so far, marked as such, until its result.
        if (r.status == RunStatus::Running && r.preliminaryMedianMs)
            return QStringLiteral("%1 ms (preliminary)").arg(*r.preliminaryMedianMs, 0, 'f', 3);
        if (!ok)
            return QString();
        // A published number has no spread: say where it comes from instead of a fake range.
        if (r.origin == QLatin1String("worklog"))
            return QStringLiteral("%1 ms (published)").arg(r.medianMs, 0, 'f', 3);
        return QStringLiteral("%1 ms").arg(r.medianMs, 0, 'f', 3);
    case SpreadColumn:
        if (!hasSpread(r))
            return QString(); // the tooltip says why
        return QStringLiteral("%1–%2").arg(r.p20Ms, 0, 'f', 3).arg(r.p80Ms, 0, 'f', 3);
    case TflopsColumn:
        return ok ? QString::number(r.tflops, 'f', 2) : QString();
    case PercentOfCublasColumn:
        if (const auto p = percentOfCublas(r))
            return QStringLiteral("%1 %").arg(*p, 0, 'f', 1);
        return QString(); // no baseline: the tooltip says so
    case PercentOfCublasTf32Column:
        if (const auto p = percentOfCublasTf32(r))
            return QStringLiteral("%1 %").arg(*p, 0, 'f', 1);
        // A dash where the ratio does not apply (a CUDA-core run), as the other columns say
        // "nothing"; blank where it would apply but has no cuBLAS TF32 run (the tooltip says so).
        return ok && !computesInTf32(r) ? kNothing : QString();
    case ClockColumn:
        if (!ok)
            return QString();
        return r.conditions && r.conditions->smClockMedianMhz ? clockText(r.conditions) : kNothing;
    case TrustColumn:
        if (!ok)
            return QString();
        // "unknown" on every row of an older session read like a verdict; it was never measured.
        // "not recorded" left open what was not: the check could not be made, for want of a log.
        return trustOf(r).level == TrustLevel::Unknown ? tr("not checked (no clock log)") : trustOf(r).word;
    case RelErrorColumn:
        // A measured 0 (identical to the reference) is a result; a run never verified has none.
        // Said as exact: a bare 0 on every row of FP32 kernels read as placeholder data; the
        // tooltip says why (the same fused multiply-adds in the same order).
        if (!r.relError)
            return ok ? kNothing : QString();
        return *r.relError == 0 ? tr("0 (exact)") : QString::number(*r.relError, 'e', 1);
    case RegistersColumn:
        if (resourcesKnown(r))
            return QString::number(r.registers);
        return ok ? kNothing : QString();
    case SmemColumn: {
        const int bytes = smemBytes(r);
        if (bytes <= 0)
            return resourcesKnown(r) ? QStringLiteral("0 B") : (ok ? kNothing : QString());
        return bytes < 1024 ? QStringLiteral("%1 B").arg(bytes)
                            : QStringLiteral("%1 KiB").arg(bytes / 1024.0, 0, 'f', 1);
    }
    case OccupancyColumn:
        if (r.occupancy < 0)
            return ok ? kNothing : QString();
        {
            // Said as what it is ("(registers)" alone read as a unit); shared memory by the title of its
            // column beside, so that at 1280x800 the stage names keep their room.
            const std::optional<OccupancyLimiter> limiter = occupancyLimiter(r);
            const QString words =
                limiter == OccupancyLimiter::SharedMemory ? tr("shared mem") : limiterWords(limiter);
            return QStringLiteral("%1 %%2")
                .arg(r.occupancy * 100.0, 0, 'f', 0)
                .arg(words.isEmpty() ? QString() : tr(" (limited by %1)").arg(words));
        }
    case GpuColumn:
        return r.gpuName;
    case OriginColumn: // the file's word "worklog" alone did not say that the number is not ours
        return r.origin == QLatin1String("worklog") ? tr("published (worklog)") : r.origin;
    case TimeColumn:
        return timeText(r.timestamp);
    case StatusColumn:
        return r.status == RunStatus::Failed ? failureText(r) : runStatusName(r.status);
    }
    return {};
}

QVariant ResultsModel::sortValue(const RunRecord &r, int column) const
{
    const bool ok = r.isOk();
    // Missing numbers sort after every real one.
    constexpr double missing = std::numeric_limits<double>::infinity();
    switch (column) {
    case CodeColumn: // the widgets' proxy sorts it in ladder order (ladderRank); here: the stage's
    case StageColumn: {
        const auto &all = stages();
        for (size_t i = 0; i < all.size(); ++i)
            if (all[i].id == r.stage)
                return int(i);
        return int(all.size());
    }
    case SizeColumn:
        return double(r.m) * double(r.n) * double(r.k);
    case MedianColumn:
        return ok ? r.medianMs : missing;
    case SpreadColumn: // the widest relative spread last: how far a time can be trusted
        return hasSpread(r) ? (r.p80Ms - r.p20Ms) / r.medianMs : missing;
    case TflopsColumn:
        return ok ? r.tflops : -1.0;
    case PercentOfCublasColumn:
        return percentOfCublas(r).value_or(-1.0);
    case PercentOfCublasTf32Column:
        return percentOfCublasTf32(r).value_or(-1.0);
    case ClockColumn:
        return r.conditions && r.conditions->smClockMedianMhz ? *r.conditions->smClockMedianMhz : -1.0;
    case TrustColumn:
        return ok ? int(trustOf(r).level) : int(TrustLevel::Published) + 1;
    case RelErrorColumn:
        return r.relError.value_or(missing);
    case RegistersColumn:
        return r.registers;
    case SmemColumn:
        return smemBytes(r);
    case OccupancyColumn:
        return r.occupancy;
    case TimeColumn:
        return r.timestamp;
    default:
        return display(r, column);
    }
}

QVariant ResultsModel::toolTip(const RunRecord &r, int column) const
{
    switch (column) {
    case CodeColumn:
        if (const QString code = codeOf(r); !code.isEmpty())
            return plainTextAsHtml( // a preset key from a file: never markup
                code.endsWith(QLatin1Char('*'))
                    ? tr("Stage %1, as the charts label it; * = not the preset as the ladder runs it "
                         "(other parameters, build or launch).")
                          .arg(code)
                : presetTitle(r.presetKey).isEmpty()
                    ? tr("Stage %1, as the charts label it.").arg(code)
                    : tr("Stage %1, as the charts label it; the parameter panel's preset \"%2\".")
                          .arg(code, presetTitle(r.presetKey)));
        return {};
    case StageColumn: { // the tables cut long names at the end: the whole name here, and its jargon
        const QString title = runStageTitleText(r);
        const QString words = jargon::explainedWords(title);
        // The name as written (a file's), the sentences as wrapping paragraphs (one line would be
        // as wide as the screen).
        return plainTextAsHtml(title) +
               (words.isEmpty() ? QString()
                                : QStringLiteral("<p>%1</p>")
                                      .arg(words.toHtmlEscaped().replace(QStringLiteral("\n\n"),
                                                                         QStringLiteral("</p><p>"))));
    }
    case ParametersColumn:
        return plainTextAsHtml(formatRunParams(r));
    case SizeColumn:
        return r.m > 0 ? tr("Problem size, M x N x K: %1").arg(r.sizeText()) : QVariant();
    case MedianColumn: // where the range's column gives way (1280x800, the Counters run list)
        if (!hasSpread(r))
            return {};
        return tr("Median of %n timed samples; p20–p80 %1–%2 ms.", nullptr, r.count)
            .arg(r.p20Ms, 0, 'f', 3)
            .arg(r.p80Ms, 0, 'f', 3);
    case SpreadColumn:
        if (!r.isOk())
            return {};
        if (r.origin == QLatin1String("worklog"))
            return tr("The worklog publishes one time a step: no spread.");
        if (!hasSpread(r))
            return tr("No spread recorded for this run.");
        return tr("20th to 80th percentile of the %n timed samples, in ms (the runtime chart's whisker): "
                  "%1 % of the median wide.",
                  nullptr, r.count)
            .arg(100 * (r.p80Ms - r.p20Ms) / r.medianMs, 0, 'f', 2);
    case PercentOfCublasColumn:
        if (const RunRecord *ref = cublasReference(r))
            return plainTextAsHtml(
                tr("Compared with cuBLAS FP32 run %1 (%2 ms), same size, origin, GPU and regime. The "
                   "baseline's own trust: %3")
                    .arg(ref->runId) // from the file: never markup
                    .arg(ref->medianMs, 0, 'f', 3)
                    .arg(trustOf(*ref).reason));
        return r.isOk() ? tr("No cuBLAS FP32 run of the same size, origin, GPU and regime to compare with.")
                        : QVariant();
    case PercentOfCublasTf32Column:
        if (!computesInTf32(r))
            return r.isOk() ? tr("An FP32 stage: compared with cuBLAS FP32 only.") : QVariant();
        if (const RunRecord *ref = cublasReference(r, StageId::CublasTf32))
            return plainTextAsHtml(tr("Compared with cuBLAS TF32 run %1 (%2 ms), same size, origin, GPU and "
                                      "regime: both on the tensor cores.")
                                       .arg(ref->runId)
                                       .arg(ref->medianMs, 0, 'f', 3));
        return r.isOk() ? tr("No cuBLAS TF32 run of the same size, origin, GPU and regime to compare with.")
                        : QVariant();
    case RelErrorColumn:
        if (!r.relError)
            return r.isOk() ? tr("Not verified: the run carries no comparison with the reference.")
                            : QVariant();
        // The runner's figure is ||C - reference|| / ||reference|| (Frobenius norms; docs/protocol.md).
        return *r.relError == 0
                   ? tr("Verified: bitwise identical to the reference (cuBLAS FP32, pedantic) in every "
                        "element: this kernel adds each output's products over k in the same order, with "
                        "the same fused multiply-adds (tolerance %1).")
                         .arg(r.tolerance)
                   : tr("Verified: relative error against the reference %1, the norm of the difference "
                        "over the reference's (tolerance %2).")
                         .arg(*r.relError)
                         .arg(r.tolerance);
    case RegistersColumn:
    case SmemColumn:
    case OccupancyColumn:
        if (!resourcesKnown(r) && r.isOk())
            return findStage(r.stage.key()) && findStage(r.stage.key())->isLibrary
                       ? tr("cuBLAS does not report the resources of its own kernels.")
                       : tr("Not recorded: the run carries no compile report.");
        if (column == SmemColumn)
            return tr("%1 B static (ptxas) + %2 B dynamic (the launch) per block")
                .arg(r.staticSmemBytes)
                .arg(launchDynamicSmemBytes(r));
        return {};
    case OriginColumn:
        if (r.origin != QLatin1String("measured"))
            return r.origin == QLatin1String("worklog")
                       ? jargon::worklog()
                       : tr("Recorded earlier with gemmscope-bench, not measured here.");
        return {};
    }
    return {};
}

bool ResultsModel::showTheSame(const RunRecord &a, const RunRecord &b, int column)
{
    switch (column) {
    case SizeColumn:
        return a.m == b.m && a.n == b.n && a.k == b.k;
    case GpuColumn:
        return a.gpuName == b.gpuName;
    case OriginColumn:
        return a.origin == b.origin;
    case StatusColumn:
        return a.status == b.status && a.status != RunStatus::Failed;
    default:
        return false;
    }
}

bool ResultsModel::sameOnEveryRow(int column) const
{
    const QList<RunRecord> &runs = m_session->runs();
    if (runs.size() < 2)
        return true;
    const RunRecord &first = runs.first();
    const QString text = display(first, column).toString();
    for (qsizetype i = 1; i < runs.size(); ++i)
        if (!showTheSame(first, runs[i], column) && display(runs[i], column).toString() != text)
            return false;
    return true;
}

QVariant ResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RunRecord &r = m_session->runs().at(index.row());
    const bool failed = r.status == RunStatus::Failed;
    switch (role) {
    case Qt::DisplayRole:
        return display(r, index.column());
    case SortRole:
        return sortValue(r, index.column());
    case RunIdRole:
        return r.runId;
    case IsFailedRole:
        return failed;
    case Qt::ToolTipRole:
        // The view shows tooltips as rich text when they look like markup: a message from a file
        // is escaped so that it reads as written.
        if (failed)
            return plainTextAsHtml(failureText(r));
        // Before the catalog's refusal: these columns say how the number was measured.
        if (index.column() == ClockColumn && r.isOk() && !(r.conditions && r.conditions->smClockMedianMhz))
            return r.smClockMHz > 0 ? tr("Not measured: %1 The runner reported only the nominal %2 MHz.")
                                          .arg(trustOf(r).reason)
                                          .arg(r.smClockMHz)
                                    : tr("Not measured: %1").arg(trustOf(r).reason);
        if (index.column() == TrustColumn && r.isOk() && trustOf(r).level == TrustLevel::Unknown)
            return jargon::noClockLog(); // the cell's words explained as the glossary explains them
        if ((index.column() == TrustColumn || index.column() == ClockColumn) && r.isOk())
            return trustOf(r).reason; // plain sentences of numbers and fixed words
        if (const QString refusal = catalogRefusal(r); !refusal.isEmpty()) // e.g. a zero tile from a file
            return plainTextAsHtml(
                tr("Kept as it was read, but not modelled (the roofline and the access check leave it "
                   "out): %1")
                    .arg(refusal));
        return toolTip(r, index.column());
    case Qt::TextAlignmentRole:
        if (isNumberColumn(index.column()))
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        if (section == TrustColumn)
            return tr(
                "Whether this time can be compared with another: steady (counted samples at one clock, "
                "noise within the target), throttled (samples left out because the SM clock fell, e.g. "
                "at the power cap), noisy (the noise stayed above the target), not checked (no clock log: "
                "timed before GemmScope logged clocks, power and noise), published (the worklog's own T4 "
                "number). Hover a cell "
                "for its "
                "reason.");
        if (section == TimeColumn)
            return tr("When the run finished, in UTC: the session file's zone, whatever this machine's.");
        if (section == ClockColumn)
            return tr(
                "The SM clock the SMs counted while the run was timed (lowest–median over its samples), "
                "not the nominal clock.");
        if (section == CodeColumn)
            return tr("The stage the run measured, as the runtime chart and the roofline name it: 0–8 "
                      "(and 5a, 5b) the stages of the worklog (the GEMM optimization worklog the ladder "
                      "follows, which calls them steps), G32 the tiles of the guide (a shared-memory "
                      "tiling guide), + a stage past the worklog, cuBLAS and TF32 the baselines.");
        if (section == OriginColumn)
            return tr("Where the number comes from: measured (by GemmScope's runner on your GPU), "
                      "published (worklog): the time the GEMM optimization worklog published for its "
                      "step, measured on an NVIDIA T4, or recorded earlier with gemmscope-bench.");
        if (section == OccupancyColumn)
            return tr("The share of the SM's warp slots the kernel's blocks fill, and the resource that "
                      "limits it (registers, shared memory, threads or blocks per SM).");
        if (section == PercentOfCublasColumn)
            return tr("Speed as a percentage of cuBLAS FP32's at the same size, origin, GPU and regime.");
        if (section == PercentOfCublasTf32Column)
            return tr("For the tensor-core (TF32) stages: speed as a percentage of cuBLAS TF32's at the same "
                      "size, origin, GPU and regime.");
        if (section == MedianColumn || section == SpreadColumn)
            return jargon::spread();
        if (section == RelErrorColumn)
            return tr("Relative error of C against cuBLAS FP32 in pedantic mode (the norm of the difference "
                      "over the reference's); 0: bitwise identical; TF32 stages about 2.6e-4, as cuBLAS "
                      "TF32; —: not verified.");
    }
    // Titles aligned as their cells: text at the left, numbers at the right.
    if (orientation == Qt::Horizontal && role == Qt::TextAlignmentRole)
        return QVariant::fromValue((isNumberColumn(section) ? Qt::AlignRight : Qt::AlignLeft) |
                                   Qt::AlignVCenter);
    // A header's first click sorts the way one reads the column: fastest and best first.
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return int(section == TflopsColumn || section == PercentOfCublasColumn ||
                           section == PercentOfCublasTf32Column || section == OccupancyColumn ||
                           section == TimeColumn
                       ? Qt::DescendingOrder
                       : Qt::AscendingOrder);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case CodeColumn:
        return tr("Stage"); // the charts' short name of the stage ("3", "+tuned"): one word for it
    case StageColumn:
        return tr("Stage name");
    case ParametersColumn:
        return tr("Parameters");
    case SizeColumn:
        return tr("Size");
    case MedianColumn:
        return tr("Median"); // "Median time" squeezes the Stage name at 1280x800 (tst_workspaces)
    case SpreadColumn:
        return tr("p20–p80 (ms)");
    case TflopsColumn:
        return tr("TFLOP/s");
    case PercentOfCublasColumn:
        return tr("% cuBLAS FP32"); // of the FP32 baseline for every stage, the TF32 ones too
    case PercentOfCublasTf32Column:
        return tr("% cuBLAS TF32");
    case ClockColumn:
        return tr("SM clock");
    case TrustColumn:
        return tr("Trust");
    case RelErrorColumn:
        return tr("Rel. error");
    case RegistersColumn:
        return tr("Registers");
    case SmemColumn:
        return tr("Shared mem");
    case OccupancyColumn:
        return tr("Occupancy");
    case GpuColumn:
        return tr("GPU");
    case OriginColumn:
        return tr("Origin");
    case TimeColumn:
        return tr("Time");
    case StatusColumn:
        return tr("Status");
    }
    return {};
}

} // namespace gemmscope
