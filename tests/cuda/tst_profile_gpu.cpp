// The runner's `profile` job on a real GPU (docs/protocol.md "Profile"): PC samples of
// fp32-tuned fall in its k loop, the per-instruction sectors of worklog steps 2 and 3 equal the
// access model's per-load figures, cuBLAS profiles without source lines, and a part that cannot be
// collected says why while the others stand. Without a GPU every test skips with the runner's
// own no_gpu sentence.
#include "../support/runner_process.h"
#include "access_model.h"
#include "events.h"
#include "machine_code.h"
#include "mapping_model.h"
#include "stage_catalog.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>
#include <algorithm>
#include <memory>

using namespace gemmscope;

namespace {

QJsonObject profileRequest(const QString &id, const Preset &preset, long long side,
                           const QStringList &parts = {}, const QString &build = {})
{
    QJsonObject params;
    for (const auto &[k, v] : preset.params)
        params.insert(QString::fromStdString(k), v);
    QJsonObject r{
        {QStringLiteral("type"), QStringLiteral("profile")},
        {QStringLiteral("id"), id},
        {QStringLiteral("stage"), QString::fromStdString(stageInfo(preset.stage).key)},
        {QStringLiteral("size"), QJsonObject{{"m", double(side)}, {"n", double(side)}, {"k", double(side)}}}};
    if (!params.isEmpty())
        r.insert(QStringLiteral("params"), params);
    if (!parts.isEmpty())
        r.insert(QStringLiteral("parts"), QJsonArray::fromStringList(parts));
    if (!build.isEmpty())
        r.insert(QStringLiteral("build"), build);
    return r;
}

const QStringList kFinal{QStringLiteral("profile"), QStringLiteral("error"), QStringLiteral("disassembly")};

protocol::ProfileEvent decoded(const QJsonObject &answer)
{
    protocol::ProfileEvent event;
    QString error;
    if (!protocol::fromJson(answer, event, &error))
        qWarning("profile event does not decode: %s", qPrintable(error));
    return event;
}

} // namespace

class TestProfileGpu : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!RunnerProcess::program().isEmpty(), "GEMMSCOPE_RUNNER must name gemmscope-runner");
        startRunner();
        GEMMSCOPE_REQUIRE_GPU_RUNNER(m_ready);
    }
    void init()
    {
        if (m_runner->process.state() != QProcess::Running)
            startRunner();
    }

    // The test: fp32-tuned's sampled hot lines lie in its k loop. The k loop is the SASS
    // inner loop (the backward branch around the most FFMAs, kernels/machine_code) of the same
    // CUBIN, disassembled with its source lines.
    void hotLinesOfTheTunedKernelLieInItsKLoop()
    {
        const Preset *preset = findPreset("fp32-tuned");
        QVERIFY(preset);
        m_runner->send(profileRequest(QStringLiteral("p"), *preset, 4096, {QStringLiteral("stalls")}));
        const QJsonObject answer = m_runner->waitFor(QStringLiteral("p"), kFinal, 300000);
        QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("profile"),
                 qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact).left(2000)));
        const protocol::ProfileEvent profile = decoded(answer);
        if (!profile.stallsError.isEmpty())
            QSKIP(qPrintable(QStringLiteral("PC sampling unavailable: ") + profile.stallsError));
        QVERIFY(profile.totalSamples.value_or(0) > 10000);
        QVERIFY(!profile.instructions.isEmpty());

        QJsonObject disassemble = profileRequest(QStringLiteral("d"), *preset, 4096);
        disassemble.insert(QStringLiteral("type"), QStringLiteral("disassemble"));
        disassemble.remove(QStringLiteral("size"));
        m_runner->send(disassemble);
        const QJsonObject listing = m_runner->waitFor(QStringLiteral("d"), kFinal, 300000);
        QCOMPARE(listing.value(QStringLiteral("event")).toString(), QStringLiteral("disassembly"));
        const MachineCode sass = parseSass(listing.value(QStringLiteral("sass")).toString().toStdString());
        QVERIFY(sass.innerLoop);
        // Lines as file:line: the kernel's headers have lines of the same numbers.
        QSet<QString> loopLines;
        for (int i = sass.innerLoop->first; i <= sass.innerLoop->last; ++i) {
            const CodeLine &line = sass.lines[size_t(i)];
            if (line.sourceLine > 0)
                loopLines.insert(QStringLiteral("%1:%2")
                                     .arg(QFileInfo(QString::fromStdString(line.sourceFile)).fileName())
                                     .arg(line.sourceLine));
        }
        QVERIFY(!loopLines.isEmpty());

        QMap<QString, double> samplesByLine;
        double all = 0;
        for (const protocol::ProfileInstruction &i : profile.instructions) {
            QVERIFY2(i.line > 0, qPrintable(QStringLiteral("no source line for pc %1").arg(i.pc)));
            QVERIFY(!i.sass.isEmpty());
            samplesByLine[QStringLiteral("%1:%2").arg(i.file).arg(i.line)] += i.samples();
            all += i.samples();
        }
        QList<QPair<double, QString>> hottest;
        for (auto it = samplesByLine.begin(); it != samplesByLine.end(); ++it)
            hottest.append({it.value(), it.key()});
        std::sort(hottest.begin(), hottest.end(), std::greater<>());
        double inLoop = 0;
        for (const auto &[samples, line] : hottest)
            if (loopLines.contains(line))
                inLoop += samples;
        qInfo("fp32-tuned 4096^3: %.0f samples (period %d), %.1f %% in the k loop's lines; hottest line %s "
              "(%.1f %%), profile %.0f ms",
              all, profile.samplingPeriod.value_or(0), 100 * inLoop / all, qPrintable(hottest.first().second),
              100 * hottest.first().first / all, profile.durationMs.value_or(0));
        for (int i = 0; i < std::min<int>(3, int(hottest.size())); ++i)
            QVERIFY2(loopLines.contains(hottest[i].second),
                     qPrintable(QStringLiteral("hot line %1 is outside the k loop").arg(hottest[i].second)));
        QVERIFY(inLoop > 0.8 * all);
    }

    // The test: per instruction, the measured sectors per request of steps 2 and 3's
    // global loads equal the access model's per-load figures (step 2's B load is not coalesced).
    void globalSectorsPerLoadMatchTheModel_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("build");
        QTest::newRow("worklog-2") << QStringLiteral("worklog-2") << QString();
        QTest::newRow("worklog-3") << QStringLiteral("worklog-3") << QString();
        QTest::newRow("worklog-2 scalar") << QStringLiteral("worklog-2") << QStringLiteral("scalar_shared");
    }
    void globalSectorsPerLoadMatchTheModel()
    {
        QFETCH(QString, preset);
        const Preset *p = findPreset(preset.toStdString());
        QVERIFY(p);
        constexpr long long side = 1536;
        QFETCH(QString, build);
        m_runner->send(
            profileRequest(QStringLiteral("i"), *p, side, {QStringLiteral("instructions")}, build));
        const QJsonObject answer = m_runner->waitFor(QStringLiteral("i"), kFinal, 300000);
        QVERIFY2(answer.value(QStringLiteral("event")).toString() == QStringLiteral("profile"),
                 qPrintable(QJsonDocument(answer).toJson(QJsonDocument::Compact)));
        const protocol::ProfileEvent profile = decoded(answer);
        if (!profile.instructionsError.isEmpty())
            QSKIP(qPrintable(QStringLiteral("SASS metrics unavailable: ") + profile.instructionsError));

        AccessContext context;
        context.size = ProblemSize{side, side, side};
        const AccessSummary model = summarizeBlock(*kernelShape(p->stage, p->params).shape, context);
        QList<double> measured;
        for (const protocol::ProfileInstruction &i : profile.instructions) {
            const double loads = i.metric(QStringLiteral("inst_executed_op_global_ld")).value_or(0);
            if (loads > 0)
                measured << i.metric(QStringLiteral("sectors_mem_global")).value_or(0) / loads;
        }
        QVERIFY(!measured.isEmpty());
        std::sort(measured.begin(), measured.end());
        const double modelLow = std::min(model.loadA.perRequest(), model.loadB.perRequest());
        const double modelHigh = std::max(model.loadA.perRequest(), model.loadB.perRequest());
        qInfo("%s: model A %.2f B %.2f sectors/request; measured per load instruction %.2f .. %.2f (%lld "
              "loads)",
              qPrintable(preset), model.loadA.perRequest(), model.loadB.perRequest(), measured.first(),
              measured.last(), (long long)measured.size());
        QVERIFY(qAbs(measured.first() - modelLow) <= 0.02 * modelLow);
        QVERIFY(qAbs(measured.last() - modelHigh) <= 0.02 * modelHigh);
    }

    // cuBLAS has no line table: its instructions carry function and pc; the limiters stand.
    void cublasProfilesWithoutSourceLines()
    {
        const Preset cublas{"cublas", "cuBLAS", StageId::CublasFp32, {}, "", std::nullopt};
        m_runner->send(profileRequest(QStringLiteral("c"), cublas, 4096,
                                      {QStringLiteral("stalls"), QStringLiteral("limiters")}));
        const QJsonObject answer = m_runner->waitFor(QStringLiteral("c"), kFinal, 300000);
        QCOMPARE(answer.value(QStringLiteral("event")).toString(), QStringLiteral("profile"));
        const protocol::ProfileEvent profile = decoded(answer);
        QCOMPARE(profile.stallsError, QString());
        QVERIFY(!profile.instructions.isEmpty());
        for (const protocol::ProfileInstruction &i : profile.instructions) {
            QCOMPARE(i.line, 0);
            QVERIFY(!i.function.isEmpty());
        }
        QVERIFY2(profile.limitersError.isEmpty(), qPrintable(profile.limitersError));
        const double occupancy =
            profile.limiters.value(QStringLiteral("sm__warps_active.avg.pct_of_peak_sustained_active"), -1);
        QVERIFY(occupancy > 0 && occupancy <= 100);
        qInfo(
            "cuBLAS SGEMM 4096^3: occupancy %.1f %%, issue slots %.1f %%, FMA pipe %.1f %%, profile %.0f ms",
            occupancy,
            profile.limiters.value(QStringLiteral("sm__inst_issued.avg.pct_of_peak_sustained_active")),
            profile.limiters.value(
                QStringLiteral("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active")),
            profile.durationMs.value_or(0));
    }

private:
    void startRunner()
    {
        m_runner = std::make_unique<RunnerProcess>();
        m_ready = m_runner->start();
    }
    std::unique_ptr<RunnerProcess> m_runner;
    QJsonObject m_ready;
};

QTEST_GUILESS_MAIN(TestProfileGpu)
#include "tst_profile_gpu.moc"
