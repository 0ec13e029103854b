// One vocabulary for stall reasons (app/core/stall_reasons.h): for every reason the table knows,
// the Source gutter, the where-the-time-goes legend, the hot-lines table and "Why not cuBLAS?"
// print the table's name, whole (the gutter never cuts it), and the tooltips carry CUPTI's name.
#include "code_heat_edit.h"
#include "profile_analysis.h"
#include "profile_hotspot_table.h"
#include "stage_source_view.h"
#include "stall_breakdown_bar.h"
#include "stall_reasons.h"
#include "support/profile_fixtures.h"

#include <QtTest>

using namespace gemmscope;

namespace {

// A profile of the coalesced stage whose every sample falls on coalesced.cuh:35 with `reason`.
protocol::ProfileEvent allSamplesIn(const QString &reason)
{
    protocol::ProfileEvent p;
    p.stage = QStringLiteral("coalesced");
    p.size = {4096, 4096, 4096};
    p.gpu.name = QStringLiteral("NVIDIA H200");
    p.instructions = {
        test::instruction("gemm", 0x10, "FFMA R1, R2, R3, R1", "coalesced.cuh", 35, {{reason, 1000}})};
    return p;
}

} // namespace

class TestStallVocabulary : public QObject {
    Q_OBJECT

private slots:
    void everyViewPrintsTheTablesName_data()
    {
        QTest::addColumn<QString>("key");
        for (const QString &key : knownStallReasonKeys())
            QTest::newRow(qPrintable(key)) << key;
        QTest::newRow("unknown") << QStringLiteral("tensor_memory_wait_for_something_long");
    }
    void everyViewPrintsTheTablesName()
    {
        QFETCH(QString, key);
        const QString name = stallReasonName(key);
        QVERIFY(!name.isEmpty() && name.size() <= kStallNameMaxChars);
        const protocol::ProfileEvent profile = allSamplesIn(key);

        StageSourceView view;
        view.resize(1000, 700);
        view.setStage(StageId::Coalesced);
        view.setProfile(&profile);
        // The gutter: "100 % <name>", printed whole.
        const auto heat = view.editor()->lineHeat().value(34);
        QCOMPARE(heat.label, QStringLiteral("100 % ") + name);
        QCOMPARE(view.editor()->marginText(34), heat.label);
        QVERIFY(heat.tooltip.contains(QStringLiteral("%1 (CUPTI: %2)").arg(name, key)));
        // The legend over the source.
        QCOMPARE(view.breakdownBar()->segments().size(), 1);
        QCOMPARE(view.breakdownBar()->segments()[0].legend, name + QStringLiteral(" 100 %"));
        // The hot-lines table.
        const HotspotRow *row = view.hotLines()->rowAt(0);
        QVERIFY(row);
        QCOMPARE(row->reasons, QStringLiteral("100 % ") + name);
        QVERIFY(row->tooltip.contains(QStringLiteral("%1 (CUPTI: %2)").arg(name, key)));
        // "Why not cuBLAS?": the stall rows' labels.
        const BaselineComparison c = compareWithBaseline(profile, allSamplesIn(QStringLiteral("selected")),
                                                         QStringLiteral("mine"), QStringLiteral("cuBLAS"));
        bool found = false;
        for (const LimiterRow &r : c.rows)
            if (r.key == QStringLiteral("stall:") + key) {
                QCOMPARE(r.label, name);
                found = true;
            }
        QVERIFY(found);
    }
};

QTEST_MAIN(TestStallVocabulary)
#include "tst_stall_vocabulary.moc"
