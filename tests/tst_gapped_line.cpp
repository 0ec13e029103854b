// A straight line with gaps where it would cross a text (widgets/gapped_line.h): the pieces left of a
// line through rects, and the QCustomPlot item that draws only those pieces, asking for its gaps
// at every draw.
#include "gapped_line.h"

#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

double totalLength(const QList<QLineF> &segments)
{
    double length = 0;
    for (const QLineF &s : segments)
        length += s.length();
    return length;
}

} // namespace

class TestGappedLine : public QObject {
    Q_OBJECT

private slots:
    void segmentsLeaveOutTheRects()
    {
        const QLineF line(10, 0, 10, 100); // down the plot, as the cuBLAS line
        // Nothing in the way: the whole line.
        QCOMPARE(segmentsClearOf(line, {}), QList<QLineF>{line});
        QCOMPARE(segmentsClearOf(line, {QRectF(20, 0, 30, 100)}), QList<QLineF>{line});
        // One text across it: the line stops at its top and goes on under it.
        const QList<QLineF> one = segmentsClearOf(line, {QRectF(0, 40, 30, 10)});
        QCOMPARE(one, (QList<QLineF>{QLineF(10, 0, 10, 40), QLineF(10, 50, 10, 100)}));
        // Two overlapping ones and one apart, given in any order: merged gaps, in the line's order.
        const QList<QLineF> three =
            segmentsClearOf(line, {QRectF(0, 80, 30, 5), QRectF(0, 20, 30, 10), QRectF(5, 25, 10, 10)});
        QCOMPARE(three,
                 (QList<QLineF>{QLineF(10, 0, 10, 20), QLineF(10, 35, 10, 80), QLineF(10, 85, 10, 100)}));
        QCOMPARE(totalLength(three), 100.0 - 15 - 5);
        // A rect over an end, and one over the whole line.
        QCOMPARE(segmentsClearOf(line, {QRectF(0, -5, 30, 15)}), QList<QLineF>{QLineF(10, 10, 10, 100)});
        QVERIFY(segmentsClearOf(line, {QRectF(0, -5, 30, 200)}).isEmpty());
        // Any direction: a diagonal through a rect's corner region.
        const QList<QLineF> diagonal = segmentsClearOf(QLineF(0, 0, 100, 100), {QRectF(40, 40, 20, 20)});
        QCOMPARE(diagonal, (QList<QLineF>{QLineF(0, 0, 40, 40), QLineF(60, 60, 100, 100)}));
    }

    // The item draws what drawnSegments() says: the line within the axis rect, less the gaps it is
    // given, asked again at each draw (the texts move with the layout).
    void theItemDrawsAroundItsGaps()
    {
        QCustomPlot plot;
        plot.resize(300, 200);
        plot.show(); // laid out at its size (a hidden plot keeps its default viewport)
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
        auto *line = new GappedStraightLine(&plot);
        line->point1->setCoords(5, 0);
        line->point2->setCoords(5, 1);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QRect area = plot.axisRect()->rect();
        const QList<QLineF> whole = line->drawnSegments();
        QCOMPARE(whole.size(), 1);
        QVERIFY(totalLength(whole) >= area.height());
        const double x = whole.first().x1();
        QList<QRectF> gaps{QRectF(x - 10, area.center().y() - 5, 20, 10)};
        line->setGaps([&gaps](const QLineF &) { return gaps; });
        const QList<QLineF> gapped = line->drawnSegments();
        QCOMPARE(gapped.size(), 2);
        QCOMPARE(totalLength(gapped), totalLength(whole) - 10);
        gaps.clear();
        QCOMPARE(line->drawnSegments(), whole);
        // Drawn: the line's pixels above and below a gap, none in it.
        gaps = {QRectF(x - 10, area.center().y() - 20, 20, 40)};
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = plot.toPixmap(plot.width(), plot.height()).toImage();
        const auto inked = [&](int y) {
            for (int dx = -1; dx <= 1; ++dx)
                if (qGray(image.pixel(int(x) + dx, y)) < 160)
                    return true;
            return false;
        };
        QVERIFY(inked(area.top() + 10));
        QVERIFY(inked(area.bottom() - 10));
        QVERIFY(!inked(area.center().y()));
    }
};

QTEST_MAIN(TestGappedLine)
#include "tst_gapped_line.moc"
