#include "profile_tables.h"

#include "kernel_sources.h"
#include "plain_text.h"
#include "stall_reasons.h"

#include <QLocale>
#include <cmath>

namespace gemmscope {

namespace {

QString reasonsTooltip(const QString &head, const QList<ReasonShare> &reasons, double samples)
{
    QStringList lines{head, QStringLiteral("%1 samples").arg(QLocale().toString(samples, 'f', 0))};
    for (const ReasonShare &r : reasons)
        lines << QStringLiteral("  %1 — %2").arg(shareText(r.share), stallReasonWithCupti(r.key));
    return lines.join(QLatin1Char('\n'));
}

QString sourceText(const QString &file, int line)
{
    const std::string_view text = embeddedKernelSource(file.toStdString());
    if (text.empty() || line <= 0)
        return {};
    return QString::fromUtf8(text.data(), qsizetype(text.size()))
        .section(QLatin1Char('\n'), line - 1, line - 1)
        .trimmed();
}

QString hex(long long pc)
{
    return QStringLiteral("0x%1").arg(pc, 4, 16, QLatin1Char('0'));
}

QString figure(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'f', 1) : QString();
}

} // namespace

QList<HotspotRow> hotspotRowsOfLines(const QList<LineProfile> &lines)
{
    QList<HotspotRow> rows;
    rows.reserve(lines.size());
    for (const LineProfile &l : lines) {
        HotspotRow r;
        r.where = QStringLiteral("%1:%2").arg(l.file.isEmpty() ? QStringLiteral("?") : l.file).arg(l.line);
        r.detail = sourceText(l.file, l.line);
        r.file = l.file;
        r.line = l.line;
        r.samples = l.samples;
        r.share = l.share;
        r.reasons = l.topReasonsText();
        r.instructions = l.instructions;
        r.tooltip = reasonsTooltip(QStringLiteral("%1: %2 of the kernel's samples, %3 SASS instruction(s)")
                                       .arg(r.where, shareText(l.share))
                                       .arg(l.instructions),
                                   l.reasons, l.samples);
        rows.append(r);
    }
    return rows;
}

QList<HotspotRow> hotspotRowsOfInstructions(const QList<InstructionHeat> &heat, const QString &function)
{
    QList<HotspotRow> rows;
    for (const InstructionHeat &h : heat) {
        const protocol::ProfileInstruction &i = *h.instruction;
        if (!function.isNull() && i.function != function)
            continue;
        HotspotRow r;
        r.where = hex(i.pc);
        r.detail = i.sass.isEmpty() ? QStringLiteral("(no disassembly)") : i.sass;
        if (function.isNull())
            r.detail = i.function + QStringLiteral(": ") + r.detail;
        r.file = i.file;
        r.line = i.line;
        r.pc = i.pc;
        r.samples = h.samples;
        r.share = h.share;
        r.reasons = h.topReasonsText();
        r.instructions = 1;
        const QString at = i.line > 0 ? QStringLiteral(" (%1:%2)").arg(i.file).arg(i.line) : QString();
        r.tooltip = reasonsTooltip(QStringLiteral("%1 %2%3: %4 of the kernel's samples")
                                       .arg(r.where, i.sass, at, shareText(h.share)),
                                   h.reasons, h.samples);
        rows.append(r);
    }
    return rows;
}

ProfileHotspotModel::ProfileHotspotModel(QObject *parent) : QAbstractTableModel(parent) {}

void ProfileHotspotModel::setRows(const QList<HotspotRow> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int ProfileHotspotModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ProfileHotspotModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProfileHotspotModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const HotspotRow &r = m_rows[index.row()];
    if (role == Qt::ToolTipRole)
        return plainTextAsHtml(r.tooltip); // file and SASS text are data, never markup
    if (role == Qt::TextAlignmentRole)
        return index.column() == Share || index.column() == Samples || index.column() == Instructions
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (Column(index.column())) {
        case Where:
            return r.pc >= 0 ? QVariant(r.pc)
                             : QVariant(r.file + QStringLiteral(":%1").arg(r.line, 6, 10, QLatin1Char('0')));
        case Share:
            return r.share;
        case Samples:
            return r.samples;
        case Reasons:
            return r.reasons;
        case Instructions:
            return r.instructions;
        case Detail:
            return r.detail;
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(index.column())) {
    case Where:
        return r.where;
    case Share:
        return shareText(r.share);
    case Samples:
        return QLocale().toString(r.samples, 'f', 0);
    case Reasons:
        return r.reasons;
    case Instructions:
        return r.instructions;
    case Detail:
        return r.detail;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ProfileHotspotModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case Share:
            return tr("Share of all the kernel's PC samples");
        case Reasons:
            return tr("The stall reasons most of its samples carry, in words");
        case Instructions:
            return tr("SASS instructions built from this line");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Where:
        return tr("Where");
    case Share:
        return tr("Share");
    case Samples:
        return tr("Samples");
    case Reasons:
        return tr("Top stall reasons");
    case Instructions:
        return tr("Instr.");
    case Detail:
        return tr("Code");
    case ColumnCount:
        break;
    }
    return {};
}

// ---- memory instructions ----

MemoryInstructionsModel::MemoryInstructionsModel(QObject *parent) : QAbstractTableModel(parent) {}

void MemoryInstructionsModel::setRows(const QList<MemoryRow> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int MemoryInstructionsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MemoryInstructionsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString MemoryInstructionsModel::shortVerdict(const MemoryInstruction &m)
{
    const bool global = m.space == MemorySpace::Global;
    switch (m.verdict) {
    case MemoryVerdict::Ideal:
        return global ? tr("coalesced") : tr("no conflict");
    case MemoryVerdict::Excess: {
        const double ratio = *m.perRequest / *m.idealPerRequest;
        const bool whole = std::abs(ratio - std::round(ratio)) < 0.05;
        const QString times = whole ? QString::number(std::lround(ratio)) : QString::number(ratio, 'f', 1);
        return global ? tr("%1x sectors: uncoalesced").arg(times)
                      : (whole ? tr("%1-way conflict").arg(times) : tr("%1x wavefronts").arg(times));
    }
    case MemoryVerdict::NotJudged:
        return tr("not judged");
    case MemoryVerdict::NotExecuted:
        return tr("never executed");
    }
    return {};
}

QVariant MemoryInstructionsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const MemoryRow &row = m_rows[index.row()];
    const MemoryInstruction &m = row.measured;
    const protocol::ProfileInstruction &i = *m.instruction;
    const bool global = m.space == MemorySpace::Global;
    // Made only for the roles that show it: a sort asks for a number of every row many times.
    const auto lineText = [&i] {
        return i.line > 0 ? QStringLiteral("%1:%2").arg(i.file).arg(i.line) : QString();
    };
    if (role == VerdictRole)
        return int(m.verdict);
    if (role == Qt::ToolTipRole) {
        const QString line = lineText();
        QStringList lines{QStringLiteral("%1 at %2%3")
                              .arg(i.sass.isEmpty() ? m.kindText() : i.sass, hex(i.pc),
                                   line.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(line)),
                          m.verdictText, m.reason};
        if (m.excess() > 0)
            lines << tr("%1 %2 over the ideal in the launch.")
                         .arg(QLocale().toString(m.excess(), 'f', 0),
                              m.space == MemorySpace::Global ? tr("sectors") : tr("wavefronts"));
        if (row.model)
            lines << tr("Model: %1 per request (%2).")
                         .arg(QString::number(row.model->perRequest, 'f', 1), row.model->what);
        return plainTextAsHtml(lines.join(QLatin1Char('\n')));
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Instruction || index.column() == Line || index.column() == Verdict
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (Column(index.column())) {
        case Instruction:
            return i.pc;
        case Line:
            return i.file + QStringLiteral(":%1").arg(i.line, 6, 10, QLatin1Char('0'));
        case Executions:
            return m.executions;
        case PerRequest:
            return m.perRequest ? QVariant(*m.perRequest) : QVariant(-1.0);
        case Model:
            return row.model ? QVariant(row.model->perRequest) : QVariant(-1.0);
        case Verdict: // the worst first when sorted descending: the most sectors (wavefronts) over the ideal
            return m.excess();
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    const auto withIdeal = [&]() -> QString {
        if (!m.perRequest)
            return {};
        const QString unit = global ? tr("sect.") : tr("wavef.");
        return m.idealPerRequest
                   ? QStringLiteral("%1 %2 (%3)").arg(figure(m.perRequest), unit, figure(m.idealPerRequest))
                   : QStringLiteral("%1 %2").arg(figure(m.perRequest), unit);
    };
    switch (Column(index.column())) {
    case Instruction:
        return QStringLiteral("%1  %2").arg(hex(i.pc), m.opcode());
    case Line:
        return lineText();
    case Executions:
        return QLocale().toString(m.executions, 'f', 0);
    case PerRequest:
        return withIdeal();
    case Model:
        return row.model ? QString::number(row.model->perRequest, 'f', 1) : QString();
    case Verdict:
        return shortVerdict(m);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant MemoryInstructionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case PerRequest:
            return tr("Per request, measured (ideal): 32-byte sectors for a global access (sect.), "
                      "wavefronts for a shared one (wavef.)");
        case Model:
            return tr("The access model's figure for this class of access, where the stage has one");
        case Executions:
            return tr("Warp-level executions of the instruction");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Instruction:
        return tr("Instruction");
    case Line:
        return tr("Line");
    case Executions:
        return tr("Executions");
    case PerRequest:
        return tr("Per request");
    case Model:
        return tr("Model");
    case Verdict:
        return tr("Verdict");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace gemmscope
