// The machine-code view on recorded compiler output: SASS chosen when there is some, the hot
// loop's mix in the table and the summary, PTX instead (with the reason) when there is no SASS.
#include "machine_code_view.h"

#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>

using namespace gemmscope;

namespace {

QString readData(const char *name)
{
    QFile f(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", name);
    return QString::fromUtf8(f.readAll());
}

} // namespace

class TestMachineCodeView : public QObject {
    Q_OBJECT
private slots:
    void sassFirstWithTheHotLoopsMix()
    {
        MachineCodeView view;
        view.resize(800, 600);
        view.setMachineCode(QStringLiteral("gemmscope::pipelined<128, 128, 16, 8, 16, 1> for sm_90"),
                            readData("warptiled_64x64x8_4x4_sm90.ptx"),
                            readData("pipelined_128x128x16_8x16_sm90.sass"), {});
        QCOMPARE(view.level(), CodeLevel::Sass);
        QVERIFY(view.code());
        // The tuned kernel: 16 x 8 x 16 FFMAs and 16 x 6 float4 fragment reads per k-tile.
        QCOMPARE(view.mixCount(QStringLiteral("FFMA"), true), 2048);
        QCOMPARE(view.mixCount(QStringLiteral("LDS.128"), true), 96);
        QVERIFY2(view.summaryText().contains(QStringLiteral("21.3 FFMA per shared load")),
                 qPrintable(view.summaryText()));
        QVERIFY(view.summaryText().contains(QStringLiteral("100 % of them 128-bit")));
        QVERIFY(view.shownText().contains(QStringLiteral("FFMA")));
        QVERIFY(view.message().isEmpty());

        // The cursor on an instruction names its source line and offers it to the Source tab.
        QSignalSpy spy(&view, &MachineCodeView::sourceLineRequested);
        view.setLevel(CodeLevel::Ptx);
        QCOMPARE(view.level(), CodeLevel::Ptx);
        QCOMPARE(view.mixCount(QStringLiteral("FFMA"), true), 128); // the PTX fixture is warptiled 64x64
        QVERIFY(view.shownText().contains(QStringLiteral("fma.rn.f32")));
        QVERIFY(!spy.isEmpty()); // the view opens at the hot loop, on an instruction
        QCOMPARE(spy.last().at(0).toString(), QStringLiteral("warptiled.cuh"));
        QVERIFY(spy.last().at(1).toInt() > 0);
    }

    // Without SASS (no nvdisasm, or it failed) the pane is never empty: the PTX stands in, SASS
    // cannot be chosen, and a line says why and that the PTX is shown instead (issue 19: choosing
    // SASS left an empty pane under a message promising the PTX).
    void withoutSassThePtxAndTheReason()
    {
        MachineCodeView view;
        const QString why = QStringLiteral("No SASS: nvdisasm is not installed with this CUDA Toolkit.");
        view.setMachineCode(QStringLiteral("k"), readData("warptiled_64x64x8_4x4_sm90.ptx"), {}, why);
        QCOMPARE(view.level(), CodeLevel::Ptx);
        QCOMPARE(view.mixCount(QStringLiteral("FFMA"), true), 128);
        QVERIFY(view.sassNote().startsWith(why));
        QVERIFY(view.sassNote().contains(QStringLiteral("The PTX is shown instead.")));
        view.setLevel(CodeLevel::Sass);
        QCOMPARE(view.level(), CodeLevel::Ptx);
        QVERIFY(view.code());
        QVERIFY(view.shownText().contains(QStringLiteral("fma.rn.f32")));
        QVERIFY(view.summaryText().contains(QStringLiteral("PTX hot loop")));
        auto *combo = view.findChild<QComboBox *>();
        QVERIFY(combo);
        auto *model = qobject_cast<QStandardItemModel *>(combo->model());
        QVERIFY(model && !model->item(1)->isEnabled());
        QCOMPARE(model->item(1)->toolTip(), view.sassNote());

        // nvdisasm failed: its sentence, and the same promise kept.
        view.setMachineCode(QStringLiteral("k"), readData("warptiled_64x64x8_4x4_sm90.ptx"), {},
                            QStringLiteral("No SASS: nvdisasm failed (bad cubin)."));
        QCOMPARE(view.sassNote(),
                 QStringLiteral("No SASS: nvdisasm failed (bad cubin). The PTX is shown instead."));
        QVERIFY(!view.shownText().isEmpty());

        // SASS again: chosen, the line gone.
        view.setMachineCode(QStringLiteral("k"), readData("warptiled_64x64x8_4x4_sm90.ptx"),
                            readData("pipelined_128x128x16_8x16_sm90.sass"), {});
        QCOMPARE(view.level(), CodeLevel::Sass);
        QVERIFY(view.sassNote().isEmpty());
        QVERIFY(model->item(1)->isEnabled());
    }

    // A tensor-core kernel's hot loop is summed up by what it is for (HGMMA) and what feeds it,
    // not by FFMA per shared load.
    void tensorCoreLoopSummary()
    {
        MachineCodeView view;
        view.setMachineCode(QStringLiteral("gemmscope::wgmma_tma_tf32<256, 128, 4> for sm_90a"),
                            readData("wgmma_tma_256x128x4_sm90a.ptx"), {}, QStringLiteral("No SASS here."));
        view.setLevel(CodeLevel::Ptx);
        QCOMPARE(view.mixCount(QStringLiteral("HGMMA"), true), 4);
        const QString summary = view.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("4 HGMMA (wgmma)")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("0 other shared loads")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("mbarrier operations")), qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("FFMA")), qPrintable(summary));
    }

    void messageInsteadOfCode()
    {
        MachineCodeView view;
        QVERIFY(!view.message().isEmpty()); // says what to do before anything was asked
        view.setMessage(QStringLiteral("cuBLAS has no source to disassemble."));
        QCOMPARE(view.message(), QStringLiteral("cuBLAS has no source to disassemble."));
        QVERIFY(!view.code());
    }
};

QTEST_MAIN(TestMachineCodeView)
#include "tst_machine_code_view.moc"
