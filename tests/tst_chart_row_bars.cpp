// RowBars (widgets/chart_row_bars.h): bars thinner than two pixels — a session of thousands of runs
// in one chart — are drawn one pixel row at a time, each row as long as the longest of its bars
// and starting where they start. Checked against the data, not against the drawing code: for
// every pixel row, where its bars end (the largest value among the bars whose centre lies in it).
#include "chart_row_bars.h"

#include <QRandomGenerator>
#include <QtTest>
#include <map>

using namespace gemmscope;

class TestChartRowBars : public QObject {
    Q_OBJECT
private slots:
    void thinBarsFillEachPixelRowToItsLongestBar_data()
    {
        QTest::addColumn<bool>("logValues");
        QTest::newRow("linear values") << false;
        QTest::newRow("log values") << true; // the runtime chart's automatic log scale
    }

    void thinBarsFillEachPixelRowToItsLongestBar()
    {
        QFETCH(bool, logValues);
        QCustomPlot plot;
        plot.resize(420, 260);
        auto *bars = new RowBars(plot.yAxis, plot.xAxis); // one row per run, top to bottom
        bars->setWidth(0.8);
        bars->setPen(Qt::NoPen);
        bars->setBrush(Qt::black);
        bars->setBaseValue(logValues ? 0.5 : 0);
        QRandomGenerator random(19);
        const int runs = 3000;
        QVector<double> keys, values;
        for (int i = 0; i < runs; ++i) {
            keys << i;
            // Blocks of rows with long and short bars mixed, as a ladder of stages repeated.
            values << (i % 7 == 0 ? 90.0 : 1.0 + random.bounded(40.0));
        }
        bars->setData(keys, values, true);
        plot.xAxis->setScaleType(logValues ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        plot.xAxis->setRange(logValues ? 0.5 : 0, 100);
        plot.yAxis->setRange(-0.5, runs - 0.5);
        plot.yAxis->setRangeReversed(true);
        for (QCPAxis *axis : {plot.xAxis, plot.yAxis}) { // nothing but the bars inside the axis rect
            axis->grid()->setVisible(false);
            axis->setTickLength(0, 0);
            axis->setSubTickLength(0, 0);
        }
        plot.replot();
        QVERIFY(bars->thin());
        const QImage image = plot.toPixmap(plot.width(), plot.height(), 1.0).toImage();

        std::map<int, double> longest; // pixel row -> the end of its longest bar
        for (int i = 0; i < runs; ++i) {
            const int row = int(std::floor(plot.yAxis->coordToPixel(keys[i])));
            const double end = plot.xAxis->coordToPixel(values[i]);
            longest[row] = std::max(longest.count(row) ? longest[row] : end, end);
        }
        const int base = int(std::round(plot.xAxis->coordToPixel(bars->baseValue())));
        const QRect area = plot.axisRect()->rect();
        int checked = 0;
        for (const auto &[row, end] : longest) {
            if (row <= area.top() + 1 || row >= area.bottom() - 1) // clear of the axis lines
                continue;
            int last = -1, first = -1;
            for (int x = area.left(); x <= area.right(); ++x)
                if (qGray(image.pixel(x, row)) < 128) {
                    first = first < 0 ? x : first;
                    last = x;
                }
            QVERIFY2(last >= 0, qPrintable(QStringLiteral("pixel row %1 is empty").arg(row)));
            QVERIFY2(std::abs(last - end) <= 1.5,
                     qPrintable(QStringLiteral("pixel row %1 ends at %2, its longest bar at %3")
                                    .arg(row)
                                    .arg(last)
                                    .arg(end)));
            QVERIFY2(std::abs(first - base) <= 1,
                     qPrintable(QStringLiteral("pixel row %1 starts at %2, the bars at %3")
                                    .arg(row)
                                    .arg(first)
                                    .arg(base)));
            ++checked;
        }
        QVERIFY(checked > 150); // the plot's whole height
    }
};

QTEST_MAIN(TestChartRowBars)
#include "tst_chart_row_bars.moc"
