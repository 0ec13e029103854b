// The roofline's points as a model, without QCustomPlot: which are drawn (a run's model disc behind
// its measured diamond unless asked for or selected; the live point unless a run ran its settings),
// which one a pointer hits in a plot frame, where a run is drawn, where the selection's marks go, the
// live point kept at its place when it moves, and which short labels the runs get.
#include "roofline_points.h"

#include <QtTest>

using namespace gemmscope::roofline_scene;

namespace {

// 0.1..1000 FLOP/B over 1000 px, 0.1..100 TFLOP/s over 500 px: a decade is 250 px across, 166.7 up.
const PlotFrame kFrame{QRect(0, 0, 1000, 500), 0.1, 1000, 0.1, 100};

ChartPoint point(PointKind kind, const QString &runId, double intensity, double tflops,
                 const QString &label = {})
{
    return ChartPoint{kind, runId, intensity, tflops, QString(), label, QColor(Qt::red)};
}

RunTip tipOf(qsizetype run)
{
    RunTip tip;
    tip.run = run;
    return tip;
}

// Run r1 measured (its disc at 1 FLOP/B, its diamond at 10), run r2 modelled only (at 100), the live
// point at 1000 FLOP/B.
PointSet ladder()
{
    PointSet set;
    set.addRun(point(PointKind::RunPredicted, QStringLiteral("r1"), 1, 1, QStringLiteral("3")), tipOf(0));
    set.addRun(point(PointKind::RunMeasured, QStringLiteral("r1"), 10, 1, QStringLiteral("3")), tipOf(0));
    set.addRun(point(PointKind::RunPredicted, QStringLiteral("r2"), 100, 1, QStringLiteral("4")), tipOf(1));
    set.setLive(point(PointKind::Live, QString(), 1000, 10));
    return set;
}

} // namespace

class TestRooflinePoints : public QObject {
    Q_OBJECT
private slots:
    void modelDiscHidesBehindItsDiamondUnlessAskedOrSelected()
    {
        PointSet set = ladder();
        QVERIFY(set.hasMeasuredPoint(0));
        QVERIFY(!set.hasMeasuredPoint(2));
        QVERIFY(!set.drawn(0));
        QVERIFY(set.drawn(1) && set.drawn(2) && set.drawn(3));
        set.setView({true, QString(), true});
        QVERIFY(set.drawn(0));
        set.setView({false, QStringLiteral("r1"), true});
        QVERIFY(set.drawn(0));
        set.setView({false, QStringLiteral("r1"), false}); // an export shows no selection
        QVERIFY(!set.drawn(0));
        set.setLiveShown(false);
        QVERIFY(!set.drawn(3));
    }

    void pointerHitsTheNearestDrawnPointWithinTheRadius()
    {
        PointSet set = ladder();
        const QPointF diamond = kFrame.pixelOf(10, 1);
        QCOMPARE(diamond, QPointF(500, 499 - 500.0 / 3));
        QCOMPARE(set.indexAt(kFrame, diamond + QPointF(3, 4)), 1);
        QCOMPARE(set.indexAt(kFrame, diamond + QPointF(0, kHitRadiusPx + 0.5)), -1);
        // The hidden model disc is not hit; shown, it is.
        const QPointF disc = kFrame.pixelOf(1, 1);
        QCOMPARE(set.indexAt(kFrame, disc), -1);
        set.setView({true, QString(), true});
        QCOMPARE(set.indexAt(kFrame, disc), 0);
        // The live point, until a run ran its settings.
        const QPointF live = kFrame.pixelOf(1000, 10);
        QCOMPARE(set.indexAt(kFrame, live), 3);
        set.setLiveShown(false);
        QCOMPARE(set.indexAt(kFrame, live), -1);
        // Of two on one spot the later (drawn on top) wins.
        PointSet same;
        same.add(point(PointKind::WorklogT4, QString(), 5, 2));
        same.add(point(PointKind::WorklogT4, QString(), 5, 2));
        QCOMPARE(same.indexAt(kFrame, kFrame.pixelOf(5, 2)), 1);
    }

    void runIsFoundWhereItIsDrawn()
    {
        PointSet set = ladder();
        QCOMPARE(set.pixelOfRun(kFrame, QStringLiteral("r1")), kFrame.pixelOf(10, 1)); // its diamond
        QCOMPARE(set.pixelOfRun(kFrame, QStringLiteral("r2")), kFrame.pixelOf(100, 1));
        QVERIFY(!set.pixelOfRun(kFrame, QStringLiteral("r9")));
        set.setView({true, QString(), true});
        QCOMPARE(set.pixelOfRun(kFrame, QStringLiteral("r1")), kFrame.pixelOf(1, 1)); // its disc, shown
    }

    void selectionRingSitsOnTheShownMarker()
    {
        PointSet set = ladder();
        QVERIFY(!set.selection());
        set.setView({false, QStringLiteral("r1"), true});
        std::optional<Selection> s = set.selection();
        QVERIFY(s);
        QCOMPARE(s->model, 0);
        QCOMPARE(s->shown, 1);
        QVERIFY(s->modelDiscShown); // hidden otherwise: drawn for the selection, dotted to its diamond
        QCOMPARE(s->run, qsizetype(0));
        set.setView({true, QStringLiteral("r1"), true});
        QVERIFY(!set.selection()->modelDiscShown); // every disc is drawn already
        set.setView({false, QStringLiteral("r2"), true});
        s = set.selection();
        QVERIFY(s);
        QCOMPARE(s->shown, 2);
        QVERIFY(!s->modelDiscShown);
        QCOMPARE(s->run, qsizetype(1));
        set.setView({false, QStringLiteral("r1"), false});
        QVERIFY(!set.selection());
    }

    void livePointMovesInItsPlace()
    {
        PointSet set = ladder();
        QVERIFY(set.live());
        QCOMPARE(set.live()->intensity, 1000.0);
        set.addRun(point(PointKind::RunPredicted, QStringLiteral("r3"), 2, 2), tipOf(2));
        set.setLive(point(PointKind::Live, QString(), 20, 3));
        QCOMPARE(set.size(), 5);
        QCOMPARE(set[3].kind, PointKind::Live);
        QCOMPARE(set[3].intensity, 20.0);
        QCOMPARE(set[4].runId, QStringLiteral("r3"));
        QCOMPARE(set.live(), &set[3]);
        set.clear();
        QVERIFY(!set.live());
        QVERIFY(set.liveShown());
    }

    void runTipsFollowTheRunsAndGoOnceWritten()
    {
        PointSet set = ladder();
        QVERIFY(!set.runTip(3)); // the live point's tooltip is its own
        QCOMPARE(set.runTip(2)->run, 1);
        set.runRemoved(0);
        QCOMPARE(set.runTip(2)->run, 0);
        QCOMPARE(set.runTip(0)->run, 0); // not after the removed run
        set.setTooltip(2, QStringLiteral("written"));
        QCOMPARE(set[2].tooltip, QStringLiteral("written"));
    }

    void viewKeepsOnlyDrawnModelDiscsInSight()
    {
        PointSet set = ladder();
        QList<ViewPoint> points = set.viewPoints();
        QCOMPARE(points.size(), 3);
        QCOMPARE(points[0].intensity, 10.0);
        QVERIFY(points[2].live);
        set.setView({true, QString(), true});
        QCOMPARE(set.viewPoints().size(), 4);
    }

    void labelsAtTheShownMarkerSharedOnOneSpot()
    {
        PointSet set = ladder();
        QList<PointLabel> labels;
        QVERIFY(addPointLabels(set, 0, labels).isEmpty());
        // r1's label at its diamond (not its hidden disc), r2's at its disc, none for the live point.
        QCOMPARE(labels.size(), 2);
        QCOMPARE(labels[0].role, MarkRole::RunMeasured);
        QCOMPARE(labels[0].intensity, 10.0);
        QCOMPARE(labels[1].role, MarkRole::RunModel);
        QCOMPARE(labels[1].texts, QStringList{QStringLiteral("4")});
        // The same configuration run again: no second label. Another on the very same spot: listed.
        const qsizetype from = set.size();
        set.addRun(point(PointKind::RunPredicted, QStringLiteral("r4"), 100, 1, QStringLiteral("4")),
                   tipOf(2));
        set.addRun(point(PointKind::RunPredicted, QStringLiteral("r5"), 100, 1, QStringLiteral("5a")),
                   tipOf(3));
        set.addRun(point(PointKind::RunPredicted, QStringLiteral("r6"), 300, 1, QStringLiteral("6")),
                   tipOf(4));
        QCOMPARE(addPointLabels(set, from, labels), QList<qsizetype>{1});
        QCOMPARE(labels.size(), 3);
        QCOMPARE(labels[1].texts, (QStringList{QStringLiteral("4"), QStringLiteral("5a")}));
        QCOMPARE(labels[2].texts, QStringList{QStringLiteral("6")});
        // A published step lists with its own kind only.
        set.add(point(PointKind::WorklogT4, QString(), 100, 1, QStringLiteral("4")));
        addPointLabels(set, set.size() - 1, labels);
        QCOMPARE(labels.size(), 4);
        QCOMPARE(labels[3].role, MarkRole::Published);
    }

    void labelsStopAtTheCap()
    {
        PointSet set;
        for (int i = 0; i < kMaxPointLabels + 10; ++i)
            set.add(point(PointKind::WorklogT4, QString(), 1 + i, 1, QString::number(i)));
        QList<PointLabel> labels;
        addPointLabels(set, 0, labels);
        QCOMPARE(labels.size(), kMaxPointLabels);
    }
};

QTEST_MAIN(TestRooflinePoints)
#include "tst_roofline_points.moc"
