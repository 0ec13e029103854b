// The runtime chart's plot in pixels without QCustomPlot: rows from the top, values linear or
// logarithmic, each bar's rect from its base; whether a label's box meets a bar (also among
// thousands of thin rows, where only the longest bar of the rows it spans is measured); and which
// value labels show (none over another label, a failure mark or a bar, outside the plot, or beside
// a row whose name is not written).
#include "runtime_bar_frame.h"

#include <QtTest>
#include <cmath>

using namespace gemmscope;
using namespace gemmscope::runtime_scene;

namespace {

// Rows 0..9 over 400 px (-0.5..9.5: 40 px a row), values 0..100 ms over 1000 px.
BarFrame linearFrame()
{
    return BarFrame{QRect(100, 0, 1000, 400), -0.5, 9.5, 0, 100, false};
}

RuntimeSlotRows rowsWithValues(const QList<double> &values)
{
    QList<RuntimeSlot> ladder;
    for (qsizetype i = 0; i < values.size(); ++i) {
        RuntimeSlot slot;
        slot.runId = QStringLiteral("r%1").arg(i); // no run: the frame reads values and ids only
        slot.plotted = values[i] > 0;
        slot.value = values[i];
        ladder << slot;
    }
    RuntimeSlotRows rows;
    rows.assign(ladder);
    return rows;
}

} // namespace

class TestRuntimeBarFrame : public QObject {
    Q_OBJECT
private slots:
    void rowsRunFromTheTopValuesFromTheBase()
    {
        const BarFrame f = linearFrame();
        QCOMPARE(f.keyPixel(-0.5), 0 - 1.0); // the area's bottom is 399: the first row's top edge
        QCOMPARE(f.keyPixel(9.5), 399.0);
        QCOMPARE(f.keyPixel(0), 19.0);
        QCOMPARE(f.keyAt(f.keyPixel(3.25)), 3.25);
        QCOMPARE(f.valuePixel(0), 100.0);
        QCOMPARE(f.valuePixel(50), 600.0);
        QCOMPARE(f.basePixel(), 100.0);
        QCOMPARE(f.barRect(0, 50, 0.5), QRectF(QPointF(100, 9), QPointF(600, 29)));
        // Logarithmic: every bar starts at the left edge; a decade is a third of 0.1..100.
        const BarFrame log{QRect(100, 0, 900, 400), -0.5, 9.5, 0.1, 100, true};
        QCOMPARE(log.basePixel(), 100.0);
        QCOMPARE(log.valuePixel(1), 400.0);
        QCOMPARE(log.valuePixel(0), 100.0 - 200); // off the area, as the plot draws it
    }

    void labelBoxMeetsTheBarsItSpans()
    {
        const BarFrame f = linearFrame();
        const RuntimeSlotRows rows = rowsWithValues({50, 20, 0, 80});
        // Right of row 1's bar (ends at 300 px), within its row: clear. Over its end: not.
        QVERIFY(!rowBarsMeet(f, rows, 0.7, std::nullopt, QRectF(310, 55, 60, 10)));
        QVERIFY(rowBarsMeet(f, rows, 0.7, std::nullopt, QRectF(290, 55, 60, 10)));
        // The failed row 2 has no bar; a box spanning rows 1 to 3 meets row 3's 80 ms bar.
        QVERIFY(!rowBarsMeet(f, rows, 0.7, std::nullopt, QRectF(310, 95, 60, 10)));
        QVERIFY(rowBarsMeet(f, rows, 0.7, std::nullopt, QRectF(310, 50, 60, 100)));
        // The selection's frame reaches a little past its row's bar.
        const QRectF justBelow(310, f.keyPixel(1 + 0.36), 60, 4);
        QVERIFY(!rowBarsMeet(f, rows, 0.7, std::nullopt, justBelow));
        QVERIFY(rowBarsMeet(f, rows, 0.7, Bar{1, 32, 0.82}, justBelow));
    }

    void thinRowsAreJudgedByTheirLongestBar()
    {
        // 1,000 rows in 400 px: a label spans dozens; only the longest of those it spans wholly counts.
        QList<double> values(1000, 10.0);
        values[500] = 90;
        const RuntimeSlotRows rows = rowsWithValues(values);
        const BarFrame f{QRect(0, 0, 1000, 400), -0.5, 999.5, 0, 100, false};
        const double y = f.keyPixel(500);
        QVERIFY(rowBarsMeet(f, rows, 0.7, std::nullopt, QRectF(500, y - 6, 80, 12)));
        QVERIFY(!rowBarsMeet(f, rows, 0.7, std::nullopt, QRectF(500, f.keyPixel(200) - 6, 80, 12)));
        QVERIFY(!rowBarsMeet(f, rows, 0.7, std::nullopt, QRectF(950, y - 6, 40, 12))); // past the longest
    }

    void labelsShowWhereNothingIsUnderThem()
    {
        const QRectF bounds(0, 0, 1000, 400);
        const auto noBar = [](const QRectF &) { return false; };
        const QList<QRectF> labels{QRectF(10, 10, 50, 12), QRectF(40, 12, 50, 12), QRectF(10, 100, 50, 12),
                                   QRectF(990, 200, 50, 12), QRectF(10, 300, 50, 12)};
        const QList<int> rowsOf{0, 1, 2, 3, 4};
        // The second sits on the first; the fourth leaves the plot.
        QCOMPARE(shownValueLabels(bounds, labels, rowsOf, 1, {}, noBar),
                 (QList<bool>{true, false, true, false, true}));
        // A failure mark is kept first: the label on it hides, the one it hid shows.
        QCOMPARE(shownValueLabels(bounds, labels, rowsOf, 1, {QRectF(0, 5, 30, 20)}, noBar),
                 (QList<bool>{false, true, true, false, true}));
        // Only every 2nd row is named: only its values show.
        QCOMPARE(shownValueLabels(bounds, labels, rowsOf, 2, {}, noBar),
                 (QList<bool>{true, false, true, false, true}));
        QCOMPARE(shownValueLabels(bounds, labels, {1, 3, 5, 7, 9}, 2, {}, noBar), (QList<bool>(5, false)));
        // On a bar: hidden, measured on the box shrunk by half a pixel (touching is not meeting).
        QList<QRectF> asked;
        const auto barAt300 = [&](const QRectF &inner) {
            asked << inner;
            return inner.intersects(QRectF(0, 295, 1000, 10));
        };
        QCOMPARE(shownValueLabels(bounds, labels, rowsOf, 1, {}, barAt300),
                 (QList<bool>{true, false, true, false, false}));
        QCOMPARE(asked.first(), QRectF(10.5, 10.5, 49, 11));
    }

    // Neighbours' boxes (13 px high, 12 px apart) overlap by their leading; their glyphs (8 px) do
    // not: told by the glyphs, every value shows. The plot's edges and the bars still go by the box.
    void neighboursAreToldApartByTheirGlyphs()
    {
        const QRectF bounds(0, 0, 1000, 400);
        const auto noBar = [](const QRectF &) { return false; };
        QList<QRectF> boxes, inks;
        QList<int> rows;
        for (int row = 0; row < 5; ++row) {
            const double centre = 20 + 12 * row;
            boxes << QRectF(100, centre - 6.5, 50, 13);
            inks << QRectF(100, centre - 4, 50, 8);
            rows << row;
        }
        QCOMPARE(shownValueLabels(bounds, boxes, rows, 1, {}, noBar),
                 (QList<bool>{true, false, true, false, true}));
        QCOMPARE(shownValueLabels(bounds, boxes, rows, 1, {}, noBar, inks), QList<bool>(5, true));
        // Out of the plot by its box: hidden, whatever its glyphs.
        QList<QRectF> leaving = boxes;
        leaving[4].moveLeft(980);
        QCOMPARE(shownValueLabels(bounds, leaving, rows, 1, {}, noBar, inks),
                 (QList<bool>{true, true, true, true, false}));
        // A bar is met by the box.
        const auto barUnderFirst = [](const QRectF &inner) {
            return inner.intersects(QRectF(0, 25, 1000, 1));
        };
        QCOMPARE(shownValueLabels(bounds, boxes, rows, 1, {}, barUnderFirst, inks).first(), false);
    }
};

QTEST_MAIN(TestRuntimeBarFrame)
#include "tst_runtime_bar_frame.moc"
