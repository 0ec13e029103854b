// The roofline's crowd with the whole H200 ladder loaded, at what the Ladder workspace gives the chart
// at 1280x800, 1440x900 and 1920x1080: every run named, by a text of its own beside its marker or by a
// list's line with a visible leader to its marker (a list matched to its crowd by colour alone left
// a user guessing which diamond a line named); runs whose markers lie on each other named together
// (G32 hid G32+1 and nothing said so); the x axis ending near the rightmost run, where 10,000 FLOP/B
// left most of the plot empty with every run under 400.
#include "roofline_chart.h"
#include "roofline_label_placer.h"
#include "roofline_math.h"
#include "support/full_ladder_roofline.h"
#include "swatch_list_text.h"

#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

using namespace gemmscope;
using roofline_labels::distanceTo;
using roofline_labels::segmentDistance;

namespace {

// The runs a plain text names: "3", "G32, G32+1".
QStringList namesIn(const QString &text)
{
    QStringList names;
    for (const QString &part : text.split(QLatin1Char(',')))
        names << part.trimmed();
    return names;
}

bool nearAny(const QList<QPointF> &points, const QPointF &at, double px)
{
    return std::any_of(points.cbegin(), points.cend(),
                       [&](const QPointF &p) { return QLineF(p, at).length() <= px; });
}

// The full ladder laid out at `size`, as the Ladder workspace shows it: with the worklog-7 run
// selected, or (`selected` false) as a new window first shows it, nothing selected.
void layOut(RooflineChart &chart, const QSize &size, bool selected = true)
{
    QVERIFY(!test::showFullLadder(chart, test::loadFullLadder()).isEmpty());
    if (!selected)
        chart.setSelectedRun({});
    chart.resize(size);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    for (int i = 0; i < 2; ++i)
        chart.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
}

// Each run's marker in pixels, by its short label: every run of the ladder has counters, so it is
// drawn once, at its measured intensity.
QList<std::pair<QString, QPointF>> runMarkers(const RooflineChart &chart)
{
    const QCustomPlot *plot = const_cast<RooflineChart &>(chart).customPlot();
    QList<std::pair<QString, QPointF>> markers;
    for (const RooflineChart::ChartPoint &p : chart.points())
        if (p.kind == RooflineChart::PointKind::RunMeasured && !p.label.isEmpty())
            markers << std::pair(p.label, QPointF(plot->xAxis->coordToPixel(p.intensity),
                                                  plot->yAxis->coordToPixel(p.tflops)));
    return markers;
}

} // namespace

class TstRooflineCrowd : public QObject {
    Q_OBJECT

private slots:
    void everyRunIsNamedBesideItOrByALeader_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(620, 390);
        QTest::newRow("1440x900") << QSize(700, 440);
        QTest::newRow("1920x1080") << QSize(940, 530);
    }
    // The three sizes, with the worklog-7 run selected and with nothing selected (a new window).
    void sizesAndSelections()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("selected");
        // And two between them (a window a little shorter than 900 px): there the tightest pile's
        // leaders passed within a pixel of each other.
        const QList<QSize> sizes{{620, 390}, {700, 440}, {940, 530}, {664, 380}, {728, 400}};
        for (const QSize &size : sizes)
            for (const bool selected : {true, false})
                QTest::newRow(qPrintable(QStringLiteral("%1x%2%3")
                                             .arg(size.width())
                                             .arg(size.height())
                                             .arg(selected ? QString() : QStringLiteral(", none selected"))))
                    << size << selected;
    }
    void everyRunIsNamedBesideItOrByALeader()
    {
        QFETCH(QSize, size);
        RooflineChart chart;
        layOut(chart, size);
        QCustomPlot *plot = chart.customPlot();
        QList<QLineF> drawnLeaders;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *line = qobject_cast<QCPItemLine *>(plot->item(i)); line && line->visible())
                drawnLeaders << QLineF(line->start->pixelPosition(), line->end->pixelPosition());
        const auto drawn = [&](const QLineF &leader) {
            return std::any_of(drawnLeaders.cbegin(), drawnLeaders.cend(), [&](const QLineF &l) {
                return QLineF(l.p1(), leader.p1()).length() < 0.5 &&
                       QLineF(l.p2(), leader.p2()).length() < 0.5;
            });
        };
        const QList<std::pair<QString, QPointF>> markers = runMarkers(chart);
        QVERIFY2(markers.size() >= 20, qPrintable(QString::number(markers.size())));
        QStringList texts;
        for (const RooflineChart::LabelLayout &l : chart.labelLayout())
            texts << l.text;
        for (const auto &[name, at] : markers) {
            bool named = false;
            for (const RooflineChart::LabelLayout &l : chart.labelLayout()) {
                if (l.ridge)
                    continue;
                // A text of its own: one line, at the marker it names.
                if (l.lines.isEmpty() && !l.text.contains(QLatin1Char('\n')) &&
                    namesIn(l.text).contains(name) && nearAny(l.anchors, at, 0.75))
                    named = true;
                // A list's line: its leader drawn, long enough to see, from its marker's edge to the line.
                for (const RooflineChart::LabelLayout::Line &line : l.lines) {
                    if (!line.names.contains(name) || !nearAny(line.anchors, at, 0.75))
                        continue;
                    QVERIFY2(drawn(line.leader),
                             qPrintable(name + QStringLiteral(": its leader is not drawn")));
                    QVERIFY2(line.leader.length() >= 5, qPrintable(name));
                    // (at the selection's ring, where it is the selected run's)
                    QVERIFY2(QLineF(line.leader.p1(), at).length() <= 12, qPrintable(name));
                    QVERIFY2(distanceTo(l.rect, line.leader.p2()) <= 0.5, qPrintable(name));
                    named = true;
                }
            }
            QVERIFY2(named,
                     qPrintable(QStringLiteral("%1 is named by no text of its own and no leader; texts: %2")
                                    .arg(name, texts.join(QStringLiteral(" | ")))));
        }
        // A list's leaders never cross each other: each reads to its own marker.
        for (const RooflineChart::LabelLayout &l : chart.labelLayout())
            for (qsizetype a = 0; a < l.lines.size(); ++a)
                for (qsizetype b = a + 1; b < l.lines.size(); ++b)
                    QVERIFY2(l.lines[a].leader.intersects(l.lines[b].leader, nullptr) !=
                                 QLineF::BoundedIntersection,
                             qPrintable(l.lines[a].names.join(QLatin1Char(',')) +
                                        QStringLiteral(" crosses ") +
                                        l.lines[b].names.join(QLatin1Char(','))));
    }

    void listBoxCoversNoMarker_data() { sizesAndSelections(); }
    void listBoxCoversNoMarker()
    {
        // The box that names a crowd's runs sat over markers of that crowd at 1440x900: a marker
        // under its white box is hidden, and one at its edge reads as a swatch of the list. Every
        // marker drawn (runs, rings, ridge dots), by its pixel position and drawn size, stays out
        // of every list's box as drawn, with a pixel to spare.
        QFETCH(QSize, size);
        QFETCH(bool, selected);
        RooflineChart chart;
        layOut(chart, size, selected);
        QCustomPlot *plot = chart.customPlot();
        QList<QRectF> boxes;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = dynamic_cast<SwatchListText *>(plot->item(i));
                text && text->visible() && !text->swatches().isEmpty())
                boxes << QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())
                             .normalized();
        QVERIFY2(!boxes.isEmpty(), "the full ladder has no crowd's list: the test needs another crowd");
        QList<QRectF> markers = chart.markerRects();
        for (const auto &[name, at] : runMarkers(chart))
            markers << QRectF(at - QPointF(4, 4), QSizeF(8, 8)); // a run's diamond, 8 px at least
        for (const QRectF &box : std::as_const(boxes))
            for (const QRectF &marker : std::as_const(markers))
                QVERIFY2(!box.adjusted(-1, -1, 1, 1).intersects(marker),
                         qPrintable(QStringLiteral("a list's box (%1,%2 %3x%4) covers the marker at %5,%6")
                                        .arg(box.x())
                                        .arg(box.y())
                                        .arg(box.width())
                                        .arg(box.height())
                                        .arg(marker.center().x())
                                        .arg(marker.center().y())));
    }

    void leadersOfAListNeverCross_data() { sizesAndSelections(); }
    void leadersOfAListNeverCross()
    {
        // In the tightest pile (8, 7, 5a, 5b, 6, 8/BK8 within a few pixels) the leaders crossed:
        // each line's leader must read to its own marker. No two leaders of a list meet, nor pass
        // within a pixel of each other (drawn 0.8 px wide, two that touch read as crossing), and
        // the lines run in the order of their markers from top to bottom.
        QFETCH(QSize, size);
        QFETCH(bool, selected);
        RooflineChart chart;
        layOut(chart, size, selected);
        int lists = 0;
        for (const RooflineChart::LabelLayout &l : chart.labelLayout()) {
            if (l.lines.size() < 2)
                continue;
            ++lists;
            for (qsizetype a = 0; a < l.lines.size(); ++a)
                for (qsizetype b = a + 1; b < l.lines.size(); ++b) {
                    const QLineF &first = l.lines[a].leader, &second = l.lines[b].leader;
                    const QString names = l.lines[a].names.join(QLatin1Char(',')) + QStringLiteral(" and ") +
                                          l.lines[b].names.join(QLatin1Char(','));
                    QVERIFY2(first.intersects(second, nullptr) != QLineF::BoundedIntersection,
                             qPrintable(names + QStringLiteral(": their leaders cross")));
                    QVERIFY2(segmentDistance(first, second) >= 1.0,
                             qPrintable(names + QStringLiteral(": their leaders touch (%1 px apart)")
                                                    .arg(segmentDistance(first, second))));
                    // A lower line's leader starts no higher than an upper line's.
                    QVERIFY2(
                        second.p1().y() >= first.p1().y() - 0.5,
                        qPrintable(names + QStringLiteral(": the lines are out of their markers' order")));
                }
        }
        QVERIFY2(lists >= 1, "the full ladder has no crowd's list: the test needs another crowd");
    }

    void runsOnEachOtherAreNamedTogether_data() { everyRunIsNamedBesideItOrByALeader_data(); }
    void runsOnEachOtherAreNamedTogether()
    {
        // Markers less than a pixel apart: the one drawn last hides the other (G32 and G32+1 differ by
        // 0.2 %). One text, or one list line, names both.
        QFETCH(QSize, size);
        RooflineChart chart;
        layOut(chart, size);
        const QList<std::pair<QString, QPointF>> markers = runMarkers(chart);
        int pairs = 0;
        for (qsizetype a = 0; a < markers.size(); ++a)
            for (qsizetype b = a + 1; b < markers.size(); ++b) {
                if (QLineF(markers[a].second, markers[b].second).length() > 1.0)
                    continue;
                ++pairs;
                const QString &first = markers[a].first, &second = markers[b].first;
                const bool together =
                    std::any_of(chart.labelLayout().cbegin(), chart.labelLayout().cend(), [&](const auto &l) {
                        if (l.lines.isEmpty())
                            return !l.ridge && namesIn(l.text).contains(first) &&
                                   namesIn(l.text).contains(second);
                        return std::any_of(l.lines.cbegin(), l.lines.cend(), [&](const auto &line) {
                            return line.names.contains(first) && line.names.contains(second);
                        });
                    });
                QVERIFY2(together,
                         qPrintable(
                             QStringLiteral("%1 and %2 lie on each other, named apart").arg(first, second)));
            }
        QVERIFY2(pairs >= 1, "G32 and G32+1 no longer lie on each other: the test needs another pair");
    }

    void xAxisEndsNearTheRightmostRun_data()
    {
        // The widest factor each size may need: the names right of the crowd take ~96 px, a larger
        // share of a narrower plot, and the view ends on a 1-2-5 value (2090 FLOP/B becomes 5000).
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("factor");
        QTest::newRow("1280x800") << QSize(620, 390) << 15.0;
        QTest::newRow("1440x900") << QSize(700, 440) << 15.0;
        QTest::newRow("1920x1080") << QSize(940, 530) << 6.0;
    }
    void xAxisEndsNearTheRightmostRun()
    {
        // The view ends within a few times the farther of the rightmost run and the highest ridge
        // (18 times the rightmost run, 10,000 FLOP/B, left most of the plot empty), and leaves each
        // ridge room to read (twice its intensity at least). Right of the rightmost run, less than a
        // third of the plot's width: room for the crowd's names, not more.
        QFETCH(QSize, size);
        QFETCH(double, factor);
        RooflineChart chart;
        layOut(chart, size);
        const QCPRange x = chart.customPlot()->xAxis->range();
        double rightmost = 0, ridge = 0;
        for (const RooflineChart::ChartPoint &p : chart.points())
            if (p.kind == RooflineChart::PointKind::RunMeasured)
                rightmost = std::max(rightmost, p.intensity);
        for (const RooflineChart::Roof &roof : chart.roofs())
            ridge = std::max(ridge, roofline::ridgeIntensity(roof.peakTflops, roof.bandwidthGBs));
        QVERIFY(rightmost > 300 && ridge > 100);
        QVERIFY2(x.upper <= factor * std::max(rightmost, ridge),
                 qPrintable(QStringLiteral("the axis runs to %1 FLOP/B, the rightmost run is at %2")
                                .arg(x.upper)
                                .arg(rightmost)));
        QVERIFY2(x.upper >= 2 * ridge, qPrintable(QString::number(x.upper)));
        const double emptyShare = std::log(x.upper / rightmost) / std::log(x.upper / x.lower);
        QVERIFY2(emptyShare < 1.0 / 3, qPrintable(QString::number(emptyShare)));
    }
};

QTEST_MAIN(TstRooflineCrowd)
#include "tst_roofline_crowd.moc"
