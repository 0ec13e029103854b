// A legend whose entries flow in rows like words (widgets/flow_legend.h): where each row starts, and
// the legend laid out under a plot: as few rows as its entries fit, none over another, inside the
// legend, a grid again when its flow width is 0.
#include "chart_layout.h"
#include "flow_legend.h"

#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;

class TestFlowLegend : public QObject {
    Q_OBJECT

private slots:
    void rowsFillInOrder()
    {
        // The runtime chart's seven entries under a 604 px plot: two rows, where a grid's columns
        // (each as wide as its widest entry) needed three.
        const QList<int> widths{230, 153, 160, 133, 130, 160, 103};
        QCOMPARE(flowRowStarts(widths, 604, 10), (QList<int>{0, 3}));
        QCOMPARE(legendColumnsThatFit(widths, 604, 10), 3);
        // Exactly full, one pixel short.
        QCOMPARE(flowRowStarts({100, 100}, 210, 10), QList<int>{0});
        QCOMPARE(flowRowStarts({100, 100}, 209, 10), (QList<int>{0, 1}));
        // An entry wider than a row has one of its own; none: no rows.
        QCOMPARE(flowRowStarts({50, 500, 50}, 200, 10), (QList<int>{0, 1, 2}));
        QVERIFY(flowRowStarts({}, 200, 10).isEmpty());
    }

    void layOutUnderAPlot()
    {
        QCustomPlot plot;
        plot.resize(620, 360);
        FlowLegend *legend = useFlowLegend(&plot);
        QCOMPARE(plot.legend, legend);
        placeLegendBelow(&plot);
        legend->setRowSpacing(2); // placeLegendBelow's compact rows overlap by design
        const QStringList texts{QStringLiteral("stages 0–8 (worklog), G32 (guide)"),
                                QStringLiteral("+ beyond the worklog"),
                                QStringLiteral("+ tensor cores (TF32)"),
                                QStringLiteral("cuBLAS baselines"),
                                QStringLiteral("whisker: p20–p80"),
                                QStringLiteral("cuBLAS FP32: 2.69 ms"),
                                QStringLiteral("selected run")};
        for (const QString &text : texts)
            addKeyItem(&plot, text, stripesIcon({Qt::red}));
        legend->setFlowWidth(plot.width());
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(legend->itemCount(), int(texts.size()));
        QSet<int> rowTops;
        QList<QRect> rects;
        for (int i = 0; i < legend->itemCount(); ++i) {
            const QRect at = legend->item(i)->outerRect();
            QCOMPARE(legendItemText(legend->item(i)), texts[i]); // in order
            QVERIFY2(legend->rect().contains(at), qPrintable(texts[i]));
            QVERIFY(at.width() >= legend->item(i)->minimumOuterSizeHint().width());
            for (const QRect &other : std::as_const(rects))
                QVERIFY2(!at.intersects(other), qPrintable(texts[i]));
            rects << at;
            rowTops << at.top();
        }
        // Rows in order: each entry right of the one before it, or on a lower row.
        for (int i = 1; i < rects.size(); ++i)
            QVERIFY(rects[i].top() > rects[i - 1].top() ||
                    (rects[i].top() == rects[i - 1].top() && rects[i].left() > rects[i - 1].right()));
        QVERIFY2(rowTops.size() < 3, qPrintable(QString::number(rowTops.size())));
        // Exactly as high as its rows: the plot keeps the rest.
        QCOMPARE(legend->outerRect().height(), legend->minimumOuterSizeHint().height());
        // A flow width of 0: the grid QCPLegend lays out (here one column, as wrap 0 rows-first says).
        legend->setFlowWidth(0);
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        for (int i = 1; i < legend->itemCount(); ++i)
            QVERIFY(legend->item(i)->outerRect().top() > legend->item(i - 1)->outerRect().top());
    }
};

QTEST_MAIN(TestFlowLegend)
#include "tst_flow_legend.moc"
