// Truth of the mapping diagrams: the owner map traced from the real kernel on the GPU (a trace
// build whose store writes the storing thread's index, via the runner's trace_owner job) must
// equal the mapping model's for every stage the catalog models, at its defaults, its presets and a
// rectangular tile.
#include "../support/runner_process.h"
#include "mapping_model.h"

#include <QJsonArray>
#include <QtTest>

#include <algorithm>
#include <utility>
#include <vector>

using namespace gemmscope;

Q_DECLARE_METATYPE(gemmscope::ParamValues)

class TstOwnerTraceGpu : public QObject {
    Q_OBJECT

    RunnerProcess runner;
    QString noGpuReason;
    int jobCounter = 0;

private slots:
    void initTestCase()
    {
        if (RunnerProcess::program().isEmpty())
            QSKIP("GEMMSCOPE_RUNNER is not set: the runner was not built (no CUDA Toolkit).");
        const QJsonObject ready = runner.start();
        QVERIFY2(!ready.isEmpty(), "the runner did not start");
        if (ready.value("gpu").isNull())
            noGpuReason = ready.value("gpu_error").toObject().value("message").toString();
    }

    void ownerMapMatchesModel_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<ParamValues>("params");
        // Every stage whose mapping the catalog models, at its defaults, at each of its presets and
        // at a rectangular tile with an unequal thread tile where it takes one: a new stage adds
        // its rows here by being in the catalog.
        const ParamValues rect = {{"BM", 128}, {"BN", 64}, {"BK", 8}, {"TM", 8}, {"TN", 4}};
        for (const StageInfo &s : stages()) {
            if (s.isLibrary || !s.model.mapping)
                continue; // cuBLAS, or a mapping not modelled yet: nothing to compare
            std::vector<std::pair<std::string, ParamValues>> sets{{"defaults", defaultParams(s.id)}};
            for (const Preset &p : presets())
                if (p.stage == s.id)
                    sets.push_back({p.key, p.params});
            if (violations(s.id, rect, ProblemSize{}).empty())
                sets.push_back({"128x64 8x4", rect});
            if (s.id == StageId::Naive)
                sets.push_back({"32x4", {{"BX", 32}, {"BY", 4}}});
            std::vector<ParamValues> seen;
            for (const auto &[name, params] : sets) {
                if (std::find(seen.begin(), seen.end(), params) != seen.end())
                    continue;
                seen.push_back(params);
                QTest::addRow("%s %s", s.key.c_str(), name.c_str())
                    << QString::fromStdString(s.key) << params;
            }
        }
    }
    void ownerMapMatchesModel()
    {
        if (!noGpuReason.isEmpty())
            QSKIP(qPrintable("no GPU: " + noGpuReason));
        QFETCH(QString, stage);
        QFETCH(ParamValues, params);
        const StageInfo *info = findStage(stage.toStdString());
        QVERIFY(info);
        const KernelShapeResult shape = kernelShape(info->id, params);
        QVERIFY2(shape.shape.has_value(), shape.error.c_str());
        const std::vector<int> model = ownerMap(*shape.shape);

        QJsonObject jsonParams;
        for (const auto &[name, value] : params)
            jsonParams.insert(QString::fromStdString(name), value);
        const QString id = QString("trace%1").arg(++jobCounter);
        runner.send(
            QJsonObject{{"type", "trace_owner"}, {"id", id}, {"stage", stage}, {"params", jsonParams}});
        const QJsonObject event = runner.waitFor(id, {"owner_map", "error"});
        QVERIFY2(event.value("event").toString() == "owner_map",
                 qPrintable(QJsonDocument(event).toJson(QJsonDocument::Compact)));
        QCOMPARE(event.value("rows").toInt(), shape.shape->bm);
        QCOMPARE(event.value("cols").toInt(), shape.shape->bn);
        const QJsonArray traced = event.value("owners").toArray();
        QCOMPARE(std::size_t(traced.size()), model.size());
        int mismatches = 0;
        QString first;
        for (qsizetype i = 0; i < traced.size(); ++i) {
            if (traced[i].toInt() != model[std::size_t(i)]) {
                if (mismatches++ == 0)
                    first = QString("first at row %1, col %2: GPU thread %3, model thread %4")
                                .arg(i / shape.shape->bn)
                                .arg(i % shape.shape->bn)
                                .arg(traced[i].toInt())
                                .arg(model[std::size_t(i)]);
            }
        }
        QVERIFY2(mismatches == 0, qPrintable(QString("%1 outputs differ; %2").arg(mismatches).arg(first)));
    }
};

QTEST_GUILESS_MAIN(TstOwnerTraceGpu)
#include "tst_owner_trace_gpu.moc"
