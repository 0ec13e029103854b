// Truth of the mapping diagrams: the owner map traced from the real kernel on the GPU (a trace
// build whose store writes the storing thread's index, via the runner's trace_owner job) must
// equal the mapping model's for every stage at two parameter sets each.
#include "mapping_model.h"
#include "runner_process.h"

#include <QJsonArray>
#include <QtTest>

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
        const ParamValues t64 = {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}};
        const ParamValues rect = {{"BM", 128}, {"BN", 64}, {"BK", 8}, {"TM", 8}, {"TN", 4}};
        const ParamValues t192 = {{"BM", 192}, {"BN", 192}, {"BK", 16}, {"TM", 12}, {"TN", 12}};
        QTest::newRow("naive 16x16") << "naive" << ParamValues{{"BX", 16}, {"BY", 16}};
        QTest::newRow("naive 32x4") << "naive" << ParamValues{{"BX", 32}, {"BY", 4}};
        QTest::newRow("smem_tiled 16") << "smem_tiled" << ParamValues{{"TILE", 16}, {"PAD", 0}};
        QTest::newRow("smem_tiled 32+1") << "smem_tiled" << ParamValues{{"TILE", 32}, {"PAD", 1}};
        for (const char *stage : {"coarsened", "coalesced", "double_buffered", "strided", "final"}) {
            QTest::newRow(qPrintable(QString("%1 64x64").arg(stage))) << stage << t64;
            QTest::newRow(qPrintable(QString("%1 128x64 8x4").arg(stage))) << stage << rect;
        }
        QTest::newRow("strided 192") << "strided" << t192;
        QTest::newRow("coalesced 192") << "coalesced" << t192;
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
