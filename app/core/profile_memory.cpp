#include "profile_memory.h"

#include "access_model.h"
#include "kernel_sources.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cmath>

namespace gemmscope {

using protocol::ProfileEvent;
using protocol::ProfileInstruction;
using namespace profile_values;

namespace {

constexpr double kIdealTolerance = 0.05; // within 5 % of the ideal reads as the ideal

QString fileLine(const ProfileInstruction &i)
{
    return i.line > 0
               ? QStringLiteral("%1:%2").arg(i.file.isEmpty() ? QStringLiteral("?") : i.file).arg(i.line)
               : QString();
}

// The matrix each source line names (operandOfSourceLine), each embedded file split once and each
// line read once: a large profile has thousands of memory instructions on far fewer lines.
class LineOperands {
public:
    std::optional<Operand> of(const QString &file, int line)
    {
        if (file.isEmpty() || line <= 0)
            return std::nullopt;
        const QPair<QString, int> key{file, line};
        if (const auto known = m_operands.constFind(key); known != m_operands.constEnd())
            return *known;
        auto lines = m_files.constFind(file);
        if (lines == m_files.constEnd()) {
            const std::string_view text = embeddedKernelSource(file.toStdString());
            lines = m_files.insert(
                file, QString::fromUtf8(text.data(), qsizetype(text.size())).split(QLatin1Char('\n')));
        }
        const std::optional<Operand> operand = operandOfSourceLine(lines->value(line - 1));
        m_operands.insert(key, operand);
        return operand;
    }

private:
    QHash<QString, QStringList> m_files;
    QHash<QPair<QString, int>, std::optional<Operand>> m_operands;
};

} // namespace

QString MemoryInstruction::opcode() const
{
    if (instruction) {
        QString sass = instruction->sass.trimmed();
        if (sass.startsWith(QLatin1Char('@'))) // a predicate: "@P0 LDG.E ..."
            sass = sass.section(QLatin1Char(' '), 1).trimmed();
        const QString op = sass.section(QLatin1Char(' '), 0, 0);
        if (!op.isEmpty())
            return op;
    }
    return kindText();
}

double MemoryInstruction::excess() const
{
    if (!perRequest || !idealPerRequest || executions <= 0)
        return 0.0;
    return std::max(0.0, (*perRequest - *idealPerRequest) * executions);
}

QString MemoryInstruction::kindText() const
{
    return QStringLiteral("%1 %2").arg(
        space == MemorySpace::Global ? QStringLiteral("global") : QStringLiteral("shared"),
        direction == MemoryDirection::Load ? QStringLiteral("load") : QStringLiteral("store"));
}

std::optional<Operand> operandOfSourceLine(const QString &lineText)
{
    QString code = lineText;
    if (const qsizetype comment = code.indexOf(QLatin1String("//")); comment >= 0)
        code.truncate(comment);
    static const QRegularExpression a(QStringLiteral(
        R"(\btileAT?\b|\bloadOrZero\w*\s*\(\s*A\b|(?<![\w.])A\s*\[|\(\s*A\s*\+|load\w*\(\s*A\s*,)"));
    static const QRegularExpression b(QStringLiteral(
        R"(\btileBT?\b|\bloadOrZero\w*\s*\(\s*B\b|(?<![\w.])B\s*\[|\(\s*B\s*\+|load\w*\(\s*B\s*,)"));
    static const QRegularExpression c(QStringLiteral(R"(GEMMSCOPE_STORE_C\s*\(|(?<![\w.])C\s*\[)"));
    const bool isA = a.match(code).hasMatch(), isB = b.match(code).hasMatch(), isC = c.match(code).hasMatch();
    if (int(isA) + int(isB) + int(isC) != 1)
        return std::nullopt;
    return isA ? Operand::A : isB ? Operand::B : Operand::C;
}

void judge(MemoryInstruction &m)
{
    const bool global = m.space == MemorySpace::Global;
    const QString unit = global ? QStringLiteral("sectors") : QStringLiteral("wavefronts");
    if (m.executions <= 0) {
        m.verdict = MemoryVerdict::NotExecuted;
        m.verdictText = QStringLiteral("never executed");
        m.reason = QStringLiteral("No warp ran this instruction in the profiled launch (a branch not taken, "
                                  "an edge case the problem size never reaches).");
        return;
    }
    if (!m.perRequest) {
        m.verdict = MemoryVerdict::NotJudged;
        m.verdictText = QStringLiteral("not measured");
        m.reason = QStringLiteral("CUPTI gave no %1 count for this instruction.").arg(unit);
        return;
    }
    if (!m.idealPerRequest || *m.idealPerRequest <= 0) {
        m.verdict = MemoryVerdict::NotJudged;
        m.verdictText = QStringLiteral("%1 %2 per request").arg(number(*m.perRequest), unit);
        m.reason = QStringLiteral("No ideal was measured for it, so it is not judged.");
        return;
    }
    const double ratio = *m.perRequest / *m.idealPerRequest;
    if (ratio <= 1.0 + kIdealTolerance) {
        m.verdict = MemoryVerdict::Ideal;
        m.verdictText = QStringLiteral("%1 %2 per request = ideal: %3")
                            .arg(number(*m.perRequest), unit,
                                 global ? QStringLiteral("coalesced") : QStringLiteral("no bank conflict"));
        m.reason = global
                       ? QStringLiteral("The warp's lanes touch no more 32-byte sectors than the bytes they "
                                        "ask for need.")
                       : QStringLiteral("The warp's lanes are served in as few shared-memory passes as their "
                                        "bytes allow: no two lanes ask one bank for different words.");
        return;
    }
    m.verdict = MemoryVerdict::Excess;
    // "4x" where the ratio is a whole number (a 4-way conflict), "2.5x" where it is not.
    const bool whole = std::abs(ratio - std::round(ratio)) < 0.05;
    const QString times = whole || ratio >= 9.95 ? number(std::round(ratio), 0) : number(ratio, 1);
    if (global) {
        m.verdictText = QStringLiteral("%1x the ideal sectors (%2 per request, ideal %3): uncoalesced")
                            .arg(times, number(*m.perRequest), number(*m.idealPerRequest));
        m.reason =
            QStringLiteral("The lanes' addresses are spread over %1x the 32-byte sectors their bytes need: "
                           "neighbouring lanes do not read neighbouring addresses, so each request "
                           "moves sectors it mostly throws away.")
                .arg(times);
    } else {
        // A whole ratio is an n-way conflict; between whole numbers the lanes' conflicts differ.
        const QString conflict = whole ? QStringLiteral("%1-way bank conflict").arg(std::lround(ratio))
                                       : QStringLiteral("bank conflicts");
        m.verdictText = QStringLiteral("%1x the ideal wavefronts (%2 per request, ideal %3): %4")
                            .arg(times, number(*m.perRequest), number(*m.idealPerRequest), conflict);
        m.reason =
            QStringLiteral("Lanes ask the same bank for different words, so the request is served in %1 "
                           "passes instead of %2.")
                .arg(number(*m.perRequest), number(*m.idealPerRequest));
    }
}

namespace {

QString withoutPredicate(const QString &sass)
{
    const QString t = sass.trimmed();
    return t.startsWith(QLatin1Char('@')) ? t.section(QLatin1Char(' '), 1).trimmed() : t;
}

// The operands of a SASS instruction: "STS [R40+0x8], R17" -> ["[R40+0x8]", "R17"].
QStringList operandsOf(const QString &sass)
{
    QString body = withoutPredicate(sass).section(QLatin1Char(' '), 1);
    if (const qsizetype semi = body.indexOf(QLatin1Char(';')); semi >= 0)
        body.truncate(semi);
    QStringList ops;
    for (const QString &op : body.split(QLatin1Char(','), Qt::SkipEmptyParts))
        ops << op.trimmed();
    return ops;
}

// Which matrix a global load reads when its own line does not say (loadOrZero's body in
// common.cuh serves both): the shared store that writes its register into a tile, a few
// instructions on, names the tile on its line ("tileB[ty][tx * TN + j] = loadOrZero(...)").
std::optional<Operand> operandByDataflow(const QList<const ProfileInstruction *> &function, qsizetype at,
                                         LineOperands &lineOperands)
{
    const QStringList ops = operandsOf(function[at]->sass);
    if (ops.isEmpty() || !ops.first().startsWith(QLatin1Char('R')))
        return std::nullopt;
    const QString reg = ops.first();
    for (qsizetype i = at + 1; i < function.size() && i <= at + 64; ++i) {
        const ProfileInstruction &next = *function[i];
        const QString op = withoutPredicate(next.sass).section(QLatin1Char(' '), 0, 0);
        const QStringList nextOps = operandsOf(next.sass);
        if (op.startsWith(QLatin1String("STS")) && !nextOps.isEmpty() && nextOps.last() == reg)
            return lineOperands.of(next.file, next.line);
        if (!op.startsWith(QLatin1String("ST")) && !nextOps.isEmpty() && nextOps.first() == reg)
            return std::nullopt; // the register is written again before any store reads it
    }
    return std::nullopt;
}

} // namespace

QList<MemoryInstruction> memoryInstructions(const ProfileEvent &profile)
{
    // Each function's instructions in program order, for the dataflow look-ahead.
    QHash<QString, QList<const ProfileInstruction *>> byFunction;
    for (const ProfileInstruction &i : profile.instructions)
        byFunction[i.function].append(&i);
    QHash<const ProfileInstruction *, QPair<QString, qsizetype>> position;
    for (auto it = byFunction.begin(); it != byFunction.end(); ++it) {
        std::stable_sort(
            it->begin(), it->end(),
            [](const ProfileInstruction *a, const ProfileInstruction *b) { return a->pc < b->pc; });
        for (qsizetype k = 0; k < it->size(); ++k)
            position.insert(it->at(k), {it.key(), k});
    }
    QList<MemoryInstruction> list;
    LineOperands lineOperands;
    for (const ProfileInstruction &i : profile.instructions) {
        const double globalLd = metricOf(i, "inst_executed_op_global_ld").value_or(0);
        const double globalSt = metricOf(i, "inst_executed_op_global_st").value_or(0);
        const double sharedLd = metricOf(i, "inst_executed_op_shared_ld").value_or(0);
        const double sharedSt = metricOf(i, "inst_executed_op_shared_st").value_or(0);
        const auto sectors = metricOf(i, "sectors_mem_global");
        const auto wavefronts = metricOf(i, "l1tex_pipe_lsu_wavefronts_mem_shared");
        QString op = i.sass.trimmed();
        if (op.startsWith(QLatin1Char('@')))
            op = op.section(QLatin1Char(' '), 1).trimmed();
        op = op.section(QLatin1Char(' '), 0, 0);
        const bool opGlobal = op.startsWith(QLatin1String("LDG")) || op.startsWith(QLatin1String("STG"));
        const bool opShared = op.startsWith(QLatin1String("LDS")) || op.startsWith(QLatin1String("STS"));
        MemoryInstruction m;
        m.instruction = &i;
        if (globalLd > 0 || globalSt > 0 || (sectors && *sectors > 0) || opGlobal) {
            m.space = MemorySpace::Global;
            m.direction = globalSt > globalLd || op.startsWith(QLatin1String("STG")) ? MemoryDirection::Store
                                                                                     : MemoryDirection::Load;
        } else if (sharedLd > 0 || sharedSt > 0 || (wavefronts && *wavefronts > 0) || opShared) {
            m.space = MemorySpace::Shared;
            m.direction = sharedSt > sharedLd || op.startsWith(QLatin1String("STS")) ? MemoryDirection::Store
                                                                                     : MemoryDirection::Load;
        } else {
            continue;
        }
        const bool global = m.space == MemorySpace::Global;
        m.executions = metricOf(i, "inst_executed").value_or(0);
        if (m.executions <= 0) // the op counts stand in where inst_executed is missing
            m.executions = global ? globalLd + globalSt : sharedLd + sharedSt;
        const auto count = global ? sectors : wavefronts;
        const auto ideal =
            metricOf(i, global ? "sectors_mem_global_ideal" : "l1tex_pipe_lsu_wavefronts_mem_shared_ideal");
        if (m.executions > 0) {
            if (count)
                m.perRequest = *count / m.executions;
            if (ideal)
                m.idealPerRequest = *ideal / m.executions;
        }
        m.operand = lineOperands.of(i.file, i.line);
        if (!m.operand && global && m.direction == MemoryDirection::Load) {
            const auto [function, at] = position.value(&i);
            m.operand = operandByDataflow(byFunction.value(function), at, lineOperands);
        }
        judge(m);
        list.append(m);
    }
    std::stable_sort(list.begin(), list.end(), [](const MemoryInstruction &a, const MemoryInstruction &b) {
        if (a.instruction->function != b.instruction->function)
            return a.instruction->function < b.instruction->function;
        return a.instruction->pc < b.instruction->pc;
    });
    return list;
}

ModelFigures modelFigures(const KernelShape &shape, const ProblemSize &size)
{
    ModelFigures f;
    AccessContext ctx;
    ctx.size = roundedUpToTiles(shape, size);
    if (const std::string why = accessContextError(shape, ctx); !why.empty()) {
        f.whyNone = QString::fromStdString(why);
        return f;
    }
    const AccessSummary s = summarizeBlock(shape, ctx);
    const auto figure = [](const ClassSummary &c) {
        return c.requests > 0 ? std::optional<double>(c.perRequest()) : std::nullopt;
    };
    f.loadA = figure(s.loadA);
    f.loadB = figure(s.loadB);
    f.storeC = figure(s.storeC);
    f.sharedLoads = figure(s.sharedLoads);
    f.sharedStores = figure(s.sharedStores);
    // Each tile's reads and fills apart (their conflicts differ: a column read against a row read),
    // over every warp of the block at k = 0 (a change of k rotates the banks, the degree stays).
    long long requests[2][2] = {}, wavefronts[2][2] = {}; // [load, store][A, B]
    const int warps = std::max(1, shape.blockX * shape.blockY / kWarpSize);
    for (int warp = 0; warp < warps; ++warp)
        for (const SharedAccess &a : sharedAccesses(shape, ctx, warp))
            if (a.activeLanes > 0 && a.operand != Operand::C) {
                const int kind = a.kind == AccessKind::Load ? 0 : 1, op = a.operand == Operand::A ? 0 : 1;
                ++requests[kind][op];
                wavefronts[kind][op] += a.conflictDegree;
            }
    const auto ratio = [&](int kind, int op) {
        return requests[kind][op] > 0
                   ? std::optional<double>(double(wavefronts[kind][op]) / double(requests[kind][op]))
                   : std::nullopt;
    };
    f.sharedLoadsA = ratio(0, 0);
    f.sharedLoadsB = ratio(0, 1);
    f.sharedStoresA = ratio(1, 0);
    f.sharedStoresB = ratio(1, 1);
    return f;
}

std::optional<ModelComparison> modelFor(const MemoryInstruction &m, const ModelFigures &model)
{
    if (m.space == MemorySpace::Shared) {
        if (m.direction == MemoryDirection::Load && m.operand == Operand::A && model.sharedLoadsA)
            return ModelComparison{*model.sharedLoadsA, QStringLiteral("the model's reads of the A tile")};
        if (m.direction == MemoryDirection::Load && m.operand == Operand::B && model.sharedLoadsB)
            return ModelComparison{*model.sharedLoadsB, QStringLiteral("the model's reads of the B tile")};
        if (m.direction == MemoryDirection::Store && m.operand == Operand::A && model.sharedStoresA)
            return ModelComparison{*model.sharedStoresA, QStringLiteral("the model's fills of the A tile")};
        if (m.direction == MemoryDirection::Store && m.operand == Operand::B && model.sharedStoresB)
            return ModelComparison{*model.sharedStoresB, QStringLiteral("the model's fills of the B tile")};
        const auto &figure = m.direction == MemoryDirection::Load ? model.sharedLoads : model.sharedStores;
        if (!figure)
            return std::nullopt;
        return ModelComparison{*figure, m.direction == MemoryDirection::Load
                                            ? QStringLiteral("the model's shared loads")
                                            : QStringLiteral("the model's shared stores, A and B together")};
    }
    if (m.direction == MemoryDirection::Store)
        return model.storeC
                   ? std::optional<ModelComparison>({*model.storeC, QStringLiteral("the model's C stores")})
                   : std::nullopt;
    if (m.operand == Operand::A && model.loadA)
        return ModelComparison{*model.loadA, QStringLiteral("the model's A loads")};
    if (m.operand == Operand::B && model.loadB)
        return ModelComparison{*model.loadB, QStringLiteral("the model's B loads")};
    if (model.loadA && model.loadB && std::abs(*model.loadA - *model.loadB) < 1e-9)
        return ModelComparison{*model.loadA, QStringLiteral("the model's loads (A and B alike)")};
    if (model.loadA && !model.loadB)
        return ModelComparison{*model.loadA, QStringLiteral("the model's A loads")};
    if (model.loadB && !model.loadA)
        return ModelComparison{*model.loadB, QStringLiteral("the model's B loads")};
    return std::nullopt; // A and B differ and the line does not say which this is
}

std::optional<MeasuredClass> measuredClass(const ProfileEvent &profile, MemorySpace space,
                                           MemoryDirection direction, std::optional<Operand> operand)
{
    return measuredClass(memoryInstructions(profile), space, direction, operand);
}

std::optional<MeasuredClass> measuredClass(const QList<MemoryInstruction> &memory, MemorySpace space,
                                           MemoryDirection direction, std::optional<Operand> operand)
{
    double count = 0, ideal = 0, executions = 0;
    bool anyIdeal = true;
    MeasuredClass c;
    QStringList where;
    QSet<QString> named; // `where` as a set: a profile may have thousands of lines
    for (const MemoryInstruction &m : memory) {
        if (m.space != space || m.direction != direction || (operand && m.operand != operand) ||
            !m.perRequest || m.executions <= 0)
            continue;
        ++c.instructions;
        executions += m.executions;
        count += *m.perRequest * m.executions;
        if (m.idealPerRequest)
            ideal += *m.idealPerRequest * m.executions;
        else
            anyIdeal = false;
        const QString at = fileLine(*m.instruction);
        const QString label = at.isEmpty() ? m.opcode() : at;
        if (!named.contains(label)) {
            named.insert(label);
            where << label;
        }
    }
    if (c.instructions == 0 || executions <= 0)
        return std::nullopt;
    c.executions = executions;
    c.perRequest = count / executions;
    if (anyIdeal)
        c.idealPerRequest = ideal / executions;
    if (where.size() > 4) {
        const qsizetype more = where.size() - 3;
        where = where.mid(0, 3);
        where << QStringLiteral("%1 more").arg(more);
    }
    c.where = where.join(QStringLiteral(", "));
    return c;
}

QString measuredBesideModel(const ProfileEvent &profile, MemorySpace space, MemoryDirection direction,
                            std::optional<Operand> operand, std::optional<double> model)
{
    return measuredBesideModel(profile, memoryInstructions(profile), space, direction, operand, model);
}

QString measuredBesideModel(const ProfileEvent &profile, const QList<MemoryInstruction> &memory,
                            MemorySpace space, MemoryDirection direction, std::optional<Operand> operand,
                            std::optional<double> model)
{
    const bool global = space == MemorySpace::Global;
    const QString unit = global ? QStringLiteral("sectors") : QStringLiteral("wavefronts");
    QString what = QStringLiteral("%1 %2").arg(global ? QStringLiteral("global") : QStringLiteral("shared"),
                                               direction == MemoryDirection::Load ? QStringLiteral("loads")
                                                                                  : QStringLiteral("stores"));
    if (operand)
        what += QStringLiteral(" of %1").arg(operand == Operand::A   ? QLatin1Char('A')
                                             : operand == Operand::B ? QLatin1Char('B')
                                                                     : QLatin1Char('C'));
    auto measured = measuredClass(memory, space, direction, operand);
    QString scope = what;
    if (!measured && operand) {
        measured = measuredClass(memory, space, direction, std::nullopt);
        scope =
            QStringLiteral("every %1 %2: the source lines do not say which matrix")
                .arg(global ? QStringLiteral("global") : QStringLiteral("shared"),
                     direction == MemoryDirection::Load ? QStringLiteral("load") : QStringLiteral("store"));
    }
    const QString gpu = profile.gpu.name.isEmpty() ? QStringLiteral("the GPU") : profile.gpu.name;
    const QString modelText =
        model ? QStringLiteral(" The model: %1 for this instruction.").arg(number(*model)) : QString();
    if (!measured) {
        if (!profile.instructionsError.isEmpty())
            return QStringLiteral("Measured: none (%1)%2")
                .arg(profile.instructionsError,
                     modelText.isEmpty() ? QString() : QLatin1Char(' ') + modelText.trimmed());
        return QStringLiteral("Measured: the profile has no %1 with memory metrics.%2").arg(what, modelText);
    }
    QString text = QStringLiteral("Measured on %1 (%2; %3): %4 %5 per request")
                       .arg(gpu, scope, measured->where, number(measured->perRequest), unit);
    if (measured->idealPerRequest)
        text += QStringLiteral(" (ideal %1)").arg(number(*measured->idealPerRequest));
    text += QLatin1Char('.');
    if (model && std::abs(measured->perRequest - *model) > kIdealTolerance * std::max(*model, 1e-9))
        text += QStringLiteral(" The model: %1 for this instruction — they differ.").arg(number(*model));
    else
        text += modelText;
    return text;
}

} // namespace gemmscope
