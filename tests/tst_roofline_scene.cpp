// The roofline's scene without QCustomPlot: the roofs drawn for measured ceilings and a datasheet,
// each run's marks at its model's and its measured intensities (and none for a run not of the chart),
// the view a chart opens on, and where the texts go for a crowded ladder (no text on another, on a
// roof or on a marker; the live point kept clear by its role), placed again exactly when the data
// they depend on changes (not when its formatted text does).
#include "roofline_label_scene.h"
#include "roofline_marker_layers.h"
#include "roofline_marks.h"
#include "roofline_math.h"
#include "roofline_roofs.h"

#include <QtTest>
#include <cmath>

using namespace gemmscope;
using namespace gemmscope::roofline_scene;

namespace {

struct LadderRun {
    const char *label;
    double intensity, tflops;
};

// An H200 ladder as the chart draws it: each run at its measured DRAM intensity, a column of
// thirteen stages between 17 and 51 TFLOP/s at ~330 FLOP/B.
const LadderRun kLadder[] = {
    {"0", 17, 5.4},        {"1", 8, 8.1},         {"G32", 16, 8.89},          {"G32+1", 16.2, 8.88},
    {"2", 150, 20.5},      {"3", 200, 16.5},      {"4", 140, 12.5},           {"5a", 330, 19.4},
    {"5b", 332, 18.7},     {"6", 334, 18.2},      {"7", 330, 20.3},           {"8", 331, 20.6},
    {"8/BK8", 333, 17.4},  {"+vec4", 330, 28},    {"+warp", 329, 31.1},       {"+pipe", 200, 38},
    {"+tuned", 331, 46.1}, {"+async", 330, 40.2}, {"cuBLAS FP32", 330, 51.1}, {"+mma", 330, 150},
    {"+wgmma", 280, 260},  {"+tma", 300, 330},    {"cuBLAS TF32", 400, 350}};

// Step 3 of the ladder (coalesced loads, 64x64 tiles) at the worklog's size, finished.
RunRecord ladderRun(const QString &id, double tflops)
{
    RunRecord r;
    r.runId = id;
    r.stage = stageIdOf(QStringLiteral("coalesced"));
    r.presetKey = QStringLiteral("worklog-3");
    r.params = {{QStringLiteral("BM"), 64},
                {QStringLiteral("BN"), 64},
                {QStringLiteral("BK"), 8},
                {QStringLiteral("TM"), 4},
                {QStringLiteral("TN"), 4}};
    r.m = 8192;
    r.n = 4096;
    r.k = 6144;
    r.status = RunStatus::Ok;
    r.origin = QStringLiteral("measured");
    r.tflops = tflops;
    r.medianMs = 2.0 * 8192 * 4096 * 6144 / (tflops * 1e12) * 1e3;
    return r;
}

constexpr double kDiamondRadius = 9 / 2.0 + 1.2 / 2 + 0.5; // a 9 px diamond with its 1.2 px pen

Ceilings h200Ceilings()
{
    Ceilings c;
    c.fmaTflops = 65.3;
    c.dramGBs = 4260;
    c.label = QStringLiteral("NVIDIA H200");
    c.tf32Tflops = 490;
    c.tf32Kernel = QStringLiteral("wgmma.m64n256k8.tf32");
    return c;
}

RoofOptions h200Options(bool tensorRoofs)
{
    RoofOptions o;
    o.datasheet = findGpu("h200");
    o.measuredShown = true;
    o.tensorRoofs = tensorRoofs;
    return o;
}

// The ladder's scene in a plot area of `size`: its roofs, a diamond and a label a run, the ridges'
// dots and names, and the panel's settings as a live circle.
Inputs ladderScene(const QSize &size, std::optional<QPointF> live = std::nullopt)
{
    const QList<RoofSpec> roofs = roofsFor(h200Ceilings(), h200Options(true));
    QList<ViewPoint> points;
    for (const LadderRun &run : kLadder)
        points << ViewPoint{run.intensity, run.tflops, false};
    const ViewRanges view = defaultView(roofs, points, size.width());
    Inputs in;
    in.key.frame = PlotFrame{QRect(QPoint(60, 30), size), view.xLower, view.xUpper, view.yLower, view.yUpper};
    in.key.fontFamily = QStringLiteral("DejaVu Sans");
    for (const LadderRun &run : kLadder) {
        in.marks << Mark{MarkRole::RunMeasured, run.intensity, run.tflops, kDiamondRadius};
        in.key.labels << PointLabel{MarkRole::RunMeasured,
                                    run.intensity,
                                    run.tflops,
                                    {QString::fromLatin1(run.label)},
                                    QColor(Qt::darkGreen)};
    }
    if (live) {
        const Mark circle{MarkRole::Live, live->x(), live->y(), 13 / 2.0 + 1 + 0.5};
        in.marks << circle;
        in.key.moving << circle;
    }
    for (const RoofSpec &roof : roofs) {
        in.roofs << roof.line;
        in.marks << Mark{MarkRole::Ridge, roof.ridgeIntensity(), roof.peakTflops, 3.5};
        in.key.ridges << RidgeText{roof.ridgeText, roof.ridgeIntensity(), roof.peakTflops, roof.ridgeLabelled,
                                   roof.level ? roof.bandwidthGBs : 0};
    }
    in.key.markCount = in.marks.size();
    return in;
}

QRectF markRect(const PlotFrame &frame, const Mark &mark)
{
    const QPointF at = frame.pixelOf(mark.intensity, mark.tflops);
    return QRectF(at - QPointF(mark.radius, mark.radius), QSizeF(2 * mark.radius, 2 * mark.radius));
}

bool crosses(const QLineF &line, const QRectF &rect)
{
    if (rect.contains(line.p1()) || rect.contains(line.p2()))
        return true;
    const QLineF edges[] = {{rect.topLeft(), rect.topRight()},
                            {rect.topRight(), rect.bottomRight()},
                            {rect.bottomRight(), rect.bottomLeft()},
                            {rect.bottomLeft(), rect.topLeft()}};
    for (const QLineF &edge : edges)
        if (line.intersects(edge, nullptr) == QLineF::BoundedIntersection)
            return true;
    return false;
}

} // namespace

class TestRooflineScene : public QObject {
    Q_OBJECT
private slots:
    void measuredCeilingsDrawTheirRoofsBesideTheDatasheets()
    {
        const QList<RoofSpec> roofs = roofsFor(h200Ceilings(), h200Options(false));
        QCOMPARE(roofs.size(), 2); // no TF32 roof without a TF32 run
        const RoofSpec &measured = roofs[0];
        QVERIFY(measured.measured);
        QCOMPARE(measured.peakTflops, 65.3);
        QCOMPARE(measured.bandwidthGBs, 4260.0);
        QVERIFY(measured.ridgeLabelled);
        QCOMPARE(measured.ridgeText, QStringLiteral("ridge 15.3 FLOP/B"));
        QVERIFY2(measured.legendName.startsWith(QStringLiteral("FP32 (FFMA, measured)\n")),
                 qPrintable(measured.legendName));
        // The line: the bandwidth's diagonal up to the ridge, then the flat peak.
        QCOMPARE(measured.line.points.size(), 3);
        QCOMPARE(measured.line.points[1], QPointF(roofline::ridgeIntensity(65.3, 4260), 65.3));
        QCOMPARE(measured.line.points[0].y(), roofline::bandwidthBound(measured.line.points[0].x(), 4260));
        QCOMPARE(measured.line.points[2].y(), 65.3);
        const RoofSpec &datasheet = roofs[1];
        QVERIFY(!datasheet.measured);
        QCOMPARE(datasheet.peakTflops, findGpu("h200")->fp32Tflops);
        // Beside a measured ridge a datasheet's is named in the legend, not on the plot.
        QVERIFY(!datasheet.ridgeLabelled);
        QVERIFY2(datasheet.legendName.contains(QStringLiteral("ridge ")), qPrintable(datasheet.legendName));
        QCOMPARE(datasheet.penStyle, Qt::DashLine);
    }

    void tensorRunsAndLevelsAddTheirRoofs()
    {
        Ceilings c = h200Ceilings();
        c.l2GBs = 12000;
        RoofOptions o = h200Options(true);
        o.l2Drawn = true;
        const QList<RoofSpec> roofs = roofsFor(c, o);
        QStringList labels;
        for (const RoofSpec &r : roofs)
            labels << r.label;
        QCOMPARE(labels, (QStringList{QStringLiteral("FP32 measured on NVIDIA H200"),
                                      QStringLiteral("TF32 tensor roof (wgmma, measured)"),
                                      QStringLiteral("H200 datasheet FP32"),
                                      QStringLiteral("H200 datasheet TF32 tensor cores"),
                                      QStringLiteral("L2 roof, measured")}));
        const RoofSpec &l2 = roofs.last();
        // Up to the highest compute roof measured here, the TF32 one, and no further than its ridge.
        QCOMPARE(l2.peakTflops, 490.0);
        QCOMPARE(l2.line.points.size(), 2);
        QCOMPARE(l2.line.points.last(), QPointF(roofline::ridgeIntensity(490, 12000), 490));
        QCOMPARE(l2.ridgeText, QStringLiteral("L2"));
        // Ceilings of another GPU: the datasheet alone, its ridge named on the plot.
        RoofOptions other = h200Options(false);
        other.measuredShown = false;
        const QList<RoofSpec> alone = roofsFor(c, other);
        QCOMPARE(alone.size(), 1);
        QVERIFY(alone[0].ridgeLabelled);
    }

    void clippedRoofsStayInTheView()
    {
        const RoofSpec roof = roofsFor(h200Ceilings(), h200Options(false)).first();
        const Polyline line = clippedLine(roof, 1, 1000, 2);
        QVERIFY(line.points.size() == 3);
        for (const QPointF &at : line.points) {
            QVERIFY2(at.x() >= 1 && at.x() <= 1000, qPrintable(QString::number(at.x())));
            QVERIFY(at.y() >= 2 - 1e-9);
        }
    }

    void defaultViewHoldsEveryRunOnA125Value()
    {
        const QList<RoofSpec> roofs = roofsFor(h200Ceilings(), h200Options(true));
        QList<ViewPoint> points;
        for (const LadderRun &run : kLadder)
            points << ViewPoint{run.intensity, run.tflops, false};
        const ViewRanges view = defaultView(roofs, points);
        for (const LadderRun &run : kLadder) {
            QVERIFY(run.intensity > view.xLower && run.intensity < view.xUpper);
            QVERIFY(run.tflops > view.yLower && run.tflops < view.yUpper);
        }
        // Room right of the rightmost run for its crowd's list (96 px of a 360 px plot), and no
        // more than that needs (18 times its intensity left most of the plot empty); over the TF32
        // roof for its ridge's name.
        const double roomRight = std::log(view.xUpper / 400) / std::log(view.xUpper / view.xLower);
        QVERIFY2(roomRight >= 96.0 / 360 && view.xUpper <= 400 * 15,
                 qPrintable(QString::number(view.xUpper)));
        // A wider plot gives the names their room nearer the run.
        const ViewRanges wide = defaultView(roofs, points, 700);
        QVERIFY2(wide.xUpper < view.xUpper && wide.xUpper <= 400 * 5,
                 qPrintable(QString::number(wide.xUpper)));
        QVERIFY(std::log(wide.xUpper / 400) / std::log(wide.xUpper / wide.xLower) * 700 >= 96);
        QVERIFY(view.yUpper >= 490 * 1.3);
        for (double end : {view.xUpper, view.yUpper}) {
            const double mantissa = end / std::pow(10.0, std::floor(std::log10(end) + 1e-9));
            QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                         std::abs(mantissa - 5) < 1e-9,
                     qPrintable(QString::number(end)));
        }
    }

    void frameMapsAsALogLogPlot()
    {
        const PlotFrame f{QRect(10, 20, 400, 300), 1, 1000, 0.1, 100};
        QCOMPARE(f.pixelOf(1, 0.1), QPointF(10, 20 + 300 - 1));
        QCOMPARE(f.xPixel(1000), 410.0);
        QCOMPARE(f.xPixel(std::sqrt(1000.0)), 210.0);
        QVERIFY(f.xPixel(0) < 10); // a log axis holds no zero: off the plot, never a NaN
        QVERIFY(f.yPixel(-1) > 320);
    }

    void crowdedLadderLabelsKeepClearOfEachOtherAndTheRoofs_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("Ladder at 1280x800") << QSize(420, 330);
        QTest::newRow("Ladder at 1440x900") << QSize(480, 380);
        QTest::newRow("Ladder at 1920x1080") << QSize(700, 470);
    }
    void crowdedLadderLabelsKeepClearOfEachOtherAndTheRoofs()
    {
        QFETCH(QSize, size);
        const Inputs in = ladderScene(size, QPointF(60, 30));
        LabelScene scene;
        const Layout &layout = scene.place(in);
        QCOMPARE(layout.labels.size(), in.key.labels.size());
        QCOMPARE(layout.ridges.size(), in.key.ridges.size());
        const PlotFrame &f = in.key.frame;
        QList<QLineF> roofLines;
        for (const Polyline &line : in.roofs)
            for (qsizetype i = 1; i < line.points.size(); ++i)
                roofLines << QLineF(f.pixelOf(line.points[i - 1].x(), line.points[i - 1].y()),
                                    f.pixelOf(line.points[i].x(), line.points[i].y()));
        QStringList named;
        int ridgesNamed = 0;
        for (qsizetype i = 0; i < layout.placed.size(); ++i) {
            const Layout::Entry &a = layout.placed[i];
            ridgesNamed += a.ridge;
            QVERIFY2(QRectF(f.area).contains(a.rect), qPrintable(a.text));
            for (qsizetype j = i + 1; j < layout.placed.size(); ++j)
                QVERIFY2(!a.rect.intersects(layout.placed[j].rect),
                         qPrintable(a.text + QStringLiteral(" on ") + layout.placed[j].text));
            for (const QLineF &line : roofLines)
                QVERIFY2(!crosses(line, a.rect.adjusted(1, 1, -1, -1)),
                         qPrintable(a.text + QStringLiteral(" on a roof")));
            for (const Mark &m : in.marks)
                QVERIFY2(!markRect(f, m).intersects(a.rect.adjusted(1, 1, -1, -1)),
                         qPrintable(a.text + QStringLiteral(" on a marker")));
            if (!a.ridge) {
                const QStringList lines = a.text.split(QLatin1Char('\n'));
                // A list's lines, each with its leader.
                QCOMPARE(a.lines.size(), lines.size() > 1 ? lines.size() : 0);
                for (const QString &line : lines)
                    for (const QString &name : line.split(QLatin1Char(',')))
                        named << name.trimmed();
            }
        }
        // Both measured ridges named on the plot (the datasheets' in the legend).
        QCOMPARE(ridgesNamed, 2);
        // A crowd shares a framed list rather than leaving its runs unnamed: most runs are named.
        QVERIFY2(named.size() >= int(std::size(kLadder)) - 3, qPrintable(named.join(QLatin1Char(' '))));
        QVERIFY(std::any_of(layout.labels.cbegin(), layout.labels.cend(), [](const PlacedText &t) {
            return t.visible && t.framed && !t.swatches.isEmpty();
        }));
    }

    // Two runs on one spot (the H100's 8 and 7: one diamond over the other) are named by one text,
    // and the spot is drawn again split, a slice each run's colour: 7's diamond showed nowhere.
    void runsOnOneSpotShowEachColour()
    {
        Inputs in;
        in.key.frame = PlotFrame{QRect(60, 30, 400, 300), 0.1, 10000, 1, 1000};
        in.key.fontFamily = QStringLiteral("DejaVu Sans");
        const auto add = [&in](double intensity, double tflops, const QString &label, const QColor &color) {
            in.marks << Mark{MarkRole::RunMeasured, intensity, tflops, kDiamondRadius};
            in.key.labels << PointLabel{MarkRole::RunMeasured, intensity, tflops, {label}, color};
        };
        add(330, 20.6, QStringLiteral("8"), QColor(0x94, 0x67, 0xbd));
        add(330 * 1.001, 20.55, QStringLiteral("7"), QColor(0x18, 0x5d, 0x8d));
        add(2, 3, QStringLiteral("0"), QColor(0xd6, 0x27, 0x28));
        in.key.markCount = in.marks.size();
        LabelScene scene;
        const Layout &layout = scene.place(in);
        QStringList texts;
        for (const Layout::Entry &e : layout.placed)
            texts << e.text;
        QVERIFY2(texts.contains(QStringLiteral("8, 7")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(texts.contains(QStringLiteral("0")), qPrintable(texts.join(QLatin1Char('|'))));
        // The diamond on top hid the other: the spot is drawn again, a slice each run's colour.
        QCOMPARE(layout.shared.size(), 1);
        QCOMPARE(layout.shared.first().colors,
                 (QList<QColor>{QColor(0x94, 0x67, 0xbd), QColor(0x18, 0x5d, 0x8d)}));
        QCOMPARE(layout.shared.first().shape, SwatchShape::Diamond);
        QVERIFY(QLineF(layout.shared.first().centre, in.key.frame.pixelOf(330, 20.6)).length() < 0.01);
    }

    void runsOnOneSpotShareAMarker()
    {
        MarkerLayers layers;
        const MarkerLayers::Id discs = layers.add(MarkRole::RunModel, {8, 1});
        const MarkerLayers::Id diamonds = layers.add(MarkRole::RunMeasured, {9, 1.2});
        QVERIFY(layers.addMerged(discs, 330, 20.6));
        // The same configuration run again, its throughput a hair from the first: one marker.
        QVERIFY(!layers.addMerged(discs, 330 * (1 + 1e-6), 20.6 * (1 - 1e-6)));
        QVERIFY(!layers.addMerged(discs, 330, 20.6));
        // A pixel away on either axis, or on another layer: a marker of its own.
        QVERIFY(layers.addMerged(discs, 330 * 1.005, 20.6));
        QVERIFY(layers.addMerged(discs, 330, 20.6 * 1.005));
        QVERIFY(layers.addMerged(diamonds, 330, 20.6));
        QCOMPARE(layers.count(), 4);
        QCOMPARE(layers.points(discs).size(), 3);
        // A layer's places are forgotten with its markers.
        layers.clearPoints(diamonds);
        QVERIFY(layers.addMerged(diamonds, 330, 20.6));
        QVERIFY(!layers.addMerged(7, 330, 20.6)); // no such layer: nothing drawn
        QCOMPARE(layers.count(), 4);
    }

    void marksAreEveryShownMarkerInDrawingOrderWithItsReach()
    {
        MarkerLayers layers;
        const MarkerLayers::Id discs = layers.add(MarkRole::RunModel, {8, 1});
        const MarkerLayers::Id live = layers.add(MarkRole::Live, {13, 2});
        const MarkerLayers::Id ring = layers.add(MarkRole::SelectionRing, {16, 2});
        // Kept in intensity order as the plot keeps them; a marker at an intensity held already goes
        // before the ones there.
        for (const QPointF &p :
             {QPointF(20, 1), QPointF(5, 2), QPointF(40, 3), QPointF(20, 4), QPointF(1, 5)})
            layers.append(discs, p.x(), p.y());
        QCOMPARE(layers.points(discs), (QList<QPointF>{{1, 5}, {5, 2}, {20, 4}, {20, 1}, {40, 3}}));
        layers.append(live, 60, 30);
        layers.append(ring, 20, 4);
        QList<Mark> marks = layers.marks();
        QCOMPARE(marks.size(), 7);
        QCOMPARE(marks[0], (Mark{MarkRole::RunModel, 1, 5, 8 / 2.0 + 1 / 2.0 + 0.5}));
        QCOMPARE(marks[5], (Mark{MarkRole::Live, 60, 30, 13 / 2.0 + 2 / 2.0 + 0.5}));
        QCOMPARE(marks[6], (Mark{MarkRole::SelectionRing, 20, 4, 16 / 2.0 + 2 / 2.0 + 0.5}));
        // A hidden layer (the live circle of settings that were run) is no marker; a removed one is gone.
        layers.setVisible(live, false);
        QVERIFY(layers.marks(MarkRole::Live).isEmpty());
        QCOMPARE(layers.marks().size(), 6);
        QCOMPARE(layers.count(), 7); // hidden, still held
        layers.remove(ring);
        QVERIFY(!layers.contains(ring));
        QCOMPARE(layers.marks().last().role, MarkRole::RunModel);
        // A layer added after a removal is drawn last, over every other.
        const MarkerLayers::Id again = layers.add(MarkRole::SelectionRing, {16, 2});
        layers.append(again, 5, 2);
        layers.setVisible(live, true);
        marks = layers.marks();
        QCOMPARE(marks.last().role, MarkRole::SelectionRing);
        QCOMPARE(marks[marks.size() - 2].role, MarkRole::Live);
    }

    void joinsDrawnAreAllOrTheSelectedOnes()
    {
        JoinSet joins;
        const Join a{150, 330, 20.6, Qt::darkGreen}, b{90, 200, 16.5, Qt::darkBlue};
        QVERIFY(joins.add(a));
        QVERIFY(!joins.add(Join{150 * (1 + 1e-6), 330, 20.6, Qt::darkGreen})); // the run again
        QVERIFY(joins.add(b));
        QCOMPARE(joins.drawn(), (QList<Join>{a, b}));
        QCOMPARE(joins.drawnPolylines().first(), (Polyline{{QPointF(150, 20.6), QPointF(330, 20.6)}}));
        // The model's intensities hidden: only the selected run's join, or none.
        joins.setShowAll(false);
        QVERIFY(joins.drawn().isEmpty());
        joins.setHighlighted(b);
        QCOMPARE(joins.drawn(), QList<Join>{b});
        joins.clear();
        QVERIFY(joins.drawn().isEmpty());
        QVERIFY(joins.add(a)); // forgotten with the rest
    }

    void labelsPlacedFromTheMarkerModelKeepClearOfItsMarkers_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("Ladder at 1280x800") << QSize(420, 330);
        QTest::newRow("Ladder at 1440x900") << QSize(480, 380);
        QTest::newRow("Ladder at 1920x1080") << QSize(700, 470);
    }
    void labelsPlacedFromTheMarkerModelKeepClearOfItsMarkers()
    {
        // The ladder's diamonds through the marker model, the selection's ring on step 7 and the
        // panel's settings hidden (they were run): the labels keep clear of every marker shown, of
        // each other, and stay in the plot.
        QFETCH(QSize, size);
        Inputs in = ladderScene(size);
        MarkerLayers layers;
        const MarkerLayers::Id diamonds = layers.add(MarkRole::RunMeasured, {9, 1.2});
        const MarkerLayers::Id live = layers.add(MarkRole::Live, {13, 2});
        const MarkerLayers::Id ring = layers.add(MarkRole::SelectionRing, {16, 2});
        for (const LadderRun &run : kLadder)
            QVERIFY(layers.addMerged(diamonds, run.intensity, run.tflops));
        QVERIFY(!layers.addMerged(diamonds, kLadder[10].intensity, kLadder[10].tflops)); // a rerun
        layers.append(ring, kLadder[10].intensity, kLadder[10].tflops);
        layers.append(live, 200, 30);
        layers.setVisible(live, false);
        QList<Mark> ridges;
        for (const Mark &m : std::as_const(in.marks))
            if (m.role == MarkRole::Ridge)
                ridges << m;
        in.marks = layers.marks() + ridges;
        in.key.moving = layers.marks(MarkRole::SelectionRing);
        in.key.markCount = layers.count();
        QCOMPARE(in.marks.size(), qsizetype(std::size(kLadder)) + 1 + ridges.size());
        LabelScene scene;
        const Layout &layout = scene.place(in);
        const PlotFrame &f = in.key.frame;
        int named = 0;
        for (qsizetype i = 0; i < layout.placed.size(); ++i) {
            const Layout::Entry &a = layout.placed[i];
            named += !a.ridge;
            QVERIFY2(QRectF(f.area).contains(a.rect), qPrintable(a.text));
            for (qsizetype j = i + 1; j < layout.placed.size(); ++j)
                QVERIFY2(!a.rect.intersects(layout.placed[j].rect),
                         qPrintable(a.text + QStringLiteral(" on ") + layout.placed[j].text));
            for (const Mark &m : std::as_const(in.marks))
                QVERIFY2(!markRect(f, m).intersects(a.rect.adjusted(1, 1, -1, -1)),
                         qPrintable(a.text + QStringLiteral(" on a marker")));
        }
        QVERIFY(named > 0);
        // The hidden circle is no obstacle: a label may sit where it would be.
        QVERIFY(!std::any_of(in.marks.cbegin(), in.marks.cend(),
                             [](const Mark &m) { return m.role == MarkRole::Live; }));
    }

    void largerPlotsShowTheSameLabels()
    {
        // The Ladder workspace's plot at 1280x800, 1440x900 and 1920x1080: the same runs get labels
        // of their own and the same runs share each list, whatever room the larger plots have.
        const auto groups = [](const QSize &size) {
            const Inputs in = ladderScene(size, QPointF(60, 30));
            LabelScene scene;
            const Layout &layout = scene.place(in);
            QStringList named; // one entry a visible text: the runs it names
            for (const PlacedText &t : layout.labels)
                if (t.visible) {
                    QStringList runs;
                    for (const qsizetype i : t.names)
                        runs << in.key.labels[i].texts;
                    runs.sort();
                    named << runs.join(QLatin1Char(','));
                }
            named.sort();
            return named;
        };
        const QStringList at1280 = groups(QSize(420, 330));
        QVERIFY(!at1280.isEmpty());
        QCOMPARE(groups(QSize(480, 380)), at1280);
        QCOMPARE(groups(QSize(700, 470)), at1280);
        QCOMPARE(groups(QSize(900, 600)), at1280);
    }

    void unlabelledRunsAreCountedInAFreeCorner()
    {
        // A plot too small for every label: the note says how many runs have none, clear of every
        // marker, line and text. (200 px high, the crowd's lists filled every corner.)
        const Inputs in = ladderScene(QSize(260, 230));
        LabelScene scene;
        const Layout &layout = scene.place(in);
        int unnamed = 0;
        for (qsizetype i = 0; i < in.key.labels.size(); ++i)
            if (std::none_of(layout.labels.cbegin(), layout.labels.cend(),
                             [&](const PlacedText &t) { return t.visible && t.names.contains(i); }))
                unnamed += int(in.key.labels[i].texts.size());
        QVERIFY(unnamed > 0);
        QCOMPARE(layout.unnamed, unnamed);
        const PlacedText &note = layout.unnamedNote;
        QVERIFY(note.visible);
        QCOMPARE(note.text, QStringLiteral("%1 runs unlabelled: hover names them").arg(unnamed));
        const PlotFrame &f = in.key.frame;
        QVERIFY(QRectF(f.area).contains(note.rect));
        for (const Layout::Entry &e : layout.placed)
            QVERIFY2(!e.rect.intersects(note.rect), qPrintable(e.text));
        for (const Mark &m : in.marks)
            QVERIFY(!markRect(f, m).intersects(note.rect));
        for (const Polyline &line : in.roofs)
            for (qsizetype i = 1; i < line.points.size(); ++i)
                QVERIFY(!crosses(QLineF(f.pixelOf(line.points[i - 1].x(), line.points[i - 1].y()),
                                        f.pixelOf(line.points[i].x(), line.points[i].y())),
                                 note.rect));
        // Where every run is named, no note.
        const Inputs roomy = ladderScene(QSize(700, 470));
        const Layout &all = scene.place(roomy);
        QCOMPARE(all.unnamed, 0);
        QVERIFY(!all.unnamedNote.visible);
    }

    void placingIsKeptWhileItsDataIsUnchanged()
    {
        const Inputs in = ladderScene(QSize(480, 380), QPointF(60, 30));
        LabelScene scene;
        QVERIFY(!scene.placedFor(in.key));
        scene.place(in);
        QVERIFY(scene.placedFor(in.key));
        QVERIFY(scene.placedFor(ladderScene(QSize(480, 380), QPointF(60, 30)).key));
        scene.forget();
        QVERIFY(!scene.placedFor(in.key));
    }

    void placingFollowsAValueEvenWhereItsTextIsEqual()
    {
        const Inputs in = ladderScene(QSize(480, 380), QPointF(60, 30));
        LabelScene scene;
        scene.place(in);
        // The live circle moved by less than twelve significant digits show: a key of formatted
        // numbers read it as unchanged.
        CacheKey moved = in.key;
        moved.moving[0].intensity *= 1 + 1e-14;
        QCOMPARE(QString::number(moved.moving[0].intensity, 'g', 12),
                 QString::number(in.key.moving[0].intensity, 'g', 12));
        QVERIFY(moved.moving[0].intensity != in.key.moving[0].intensity);
        QVERIFY(!scene.placedFor(moved));
        CacheKey relabelled = in.key;
        relabelled.labels[5].tflops += 1e-12;
        QVERIFY(!scene.placedFor(relabelled));
        CacheKey zoomed = in.key;
        zoomed.frame.xUpper *= 1 + 1e-15;
        QVERIFY(!scene.placedFor(zoomed));
    }

    void liveCircleIsKeptClearByItsRole()
    {
        // The panel's settings in the middle of the crowd: no text covers the circle.
        const Inputs in = ladderScene(QSize(480, 380), QPointF(330, 24));
        LabelScene scene;
        const Layout &layout = scene.place(in);
        const Mark &live = in.key.moving.first();
        QCOMPARE(live.role, MarkRole::Live);
        const QRectF circle = markRect(in.key.frame, live);
        for (const Layout::Entry &e : layout.placed)
            QVERIFY2(!e.rect.intersects(circle.adjusted(1, 1, -1, -1)), qPrintable(e.text));
    }

    void noteMovesUpWhereTheSlopeCrossesIt()
    {
        // A narrow plot whose diagonal runs through its lower right, where the note sits first.
        Inputs in;
        in.key.frame = PlotFrame{QRect(60, 30, 340, 330), 0.1, 20, 1, 100};
        in.key.fontFamily = QStringLiteral("DejaVu Sans");
        in.key.note = QStringLiteral("measured intensity: hardware counters not available\n(the runner "
                                     "reported no DRAM counters for these runs)");
        in.roofs << roofsFor(h200Ceilings(), h200Options(false)).first().line;
        LabelScene scene;
        const Layout &layout = scene.place(in);
        QCOMPARE(layout.note, NoteCorner::TopLeft);
        const PlotFrame &f = in.key.frame;
        QVERIFY(QRectF(f.area).contains(layout.noteRect));
        const QList<QPointF> &roof = in.roofs.first().points;
        for (qsizetype i = 1; i < roof.size(); ++i)
            QVERIFY(!crosses(
                QLineF(f.pixelOf(roof[i - 1].x(), roof[i - 1].y()), f.pixelOf(roof[i].x(), roof[i].y())),
                layout.noteRect));
        // Where the slope leaves the lower right free, the note stays there.
        in.key.frame = PlotFrame{QRect(60, 30, 600, 330), 0.1, 20, 1, 100};
        QCOMPARE(scene.place(in).note, NoteCorner::BottomRight);
    }
    void eachRunIsMarkedAtItsIntensities()
    {
        RunRecord run = ladderRun(QStringLiteral("r1"), 13.7);
        RunMarker marker;
        marker.setOptions({findGpu("h200"), false, true, false});
        const double predicted = plottedIntensity(
            estimateTraffic(run.stage, paramValuesOf(run), ProblemSize{run.m, run.n, run.k}));
        QVERIFY(predicted > 0);
        // Without counters: one disc at the model's intensity and the run's throughput.
        std::optional<RunMarks> marks = marker.marksOf(run);
        QVERIFY(marks);
        QCOMPARE(marks->marks.size(), 1);
        QCOMPARE(marks->marks[0].mark.role, MarkRole::RunModel);
        QCOMPARE(marks->marks[0].mark.intensity, predicted);
        QCOMPARE(marks->marks[0].mark.tflops, 13.7);
        QVERIFY(marks->marks[0].drawn);
        QCOMPARE(marks->label, QStringLiteral("3"));
        // With counters: the diamond at the measured DRAM intensity and a triangle at the L2 one (the
        // L2 is drawn); the model's disc listed but hidden.
        protocol::Counters counters;
        counters.dramIntensity = 42.5;
        counters.l2Intensity = 90.25;
        counters.l1Intensity = 300;
        run.counters = counters;
        marks = marker.marksOf(run);
        QVERIFY(marks);
        QCOMPARE(marks->marks.size(), 3);
        QCOMPARE(marks->marks[0].mark.role, MarkRole::RunModel);
        QVERIFY(!marks->marks[0].drawn);
        QCOMPARE(marks->marks[1].mark.role, MarkRole::RunMeasured);
        QCOMPARE(marks->marks[1].mark.intensity, 42.5);
        QCOMPARE(marks->marks[1].mark.tflops, 13.7);
        QCOMPARE(marks->marks[2].mark.role, MarkRole::RunLevel);
        QCOMPARE(marks->marks[2].level, std::optional(MemoryLevel::L2));
        QCOMPARE(marks->marks[2].mark.intensity, 90.25);
        // Asked for, every run's model disc is drawn too.
        RunMarker everyModel;
        everyModel.setOptions({findGpu("h200"), true, false, false});
        QVERIFY(everyModel.marksOf(run)->marks[0].drawn);
        QCOMPARE(everyModel.marksOf(run)->marks.size(), 2); // no level drawn
    }

    void runsNotOfThisChartGetNoMark()
    {
        RunMarker marker;
        marker.setOptions({findGpu("h200"), false, false, false});
        RunRecord failed = ladderRun(QStringLiteral("r1"), 13.7);
        failed.status = RunStatus::Failed;
        QVERIFY(!marker.marksOf(failed));
        RunRecord otherGpu = ladderRun(QStringLiteral("r2"), 13.7);
        otherGpu.gpuName = QStringLiteral("NVIDIA A100-SXM4-80GB");
        QVERIFY(!marker.marksOf(otherGpu));
        RunRecord published = ladderRun(QStringLiteral("r3"), 1.2);
        published.origin = QStringLiteral("worklog");
        QVERIFY(!marker.marksOf(published)); // the worklog's rows belong on the T4 roof
        RunMarker onT4;
        onT4.setOptions({findGpu("t4"), false, false, false});
        const std::optional<RunMarks> row = onT4.marksOf(published);
        QVERIFY(row);
        QCOMPARE(row->marks.size(), 1);
        QCOMPARE(row->marks[0].mark.role, MarkRole::Published);
        RunRecord zeroTile = ladderRun(QStringLiteral("r4"), 13.7);
        zeroTile.params[QStringLiteral("BM")] = 0;
        QVERIFY(!marker.marksOf(zeroTile)); // the catalog refuses it: never given to the model
        RunRecord here = ladderRun(QStringLiteral("r5"), 13.7);
        here.gpuName = QStringLiteral("NVIDIA H200");
        QVERIFY(marker.marksOf(here));
        QCOMPARE(marker.chosenDevices(), QStringList{QStringLiteral("NVIDIA H200")});
        QVERIFY(marker.modelled(here));
    }
    void keyExplainsEachKindOfMarkDrawn()
    {
        QVERIFY(keyEntries(KeyInputs{}).isEmpty());
        // Counters measured some runs: the disc names the runs without them; a level's triangle.
        KeyInputs in;
        in.anyModel = true;
        in.anyMeasured = true;
        in.anyL1Shared = true;
        in.selection = true;
        const QList<KeyEntry> entries = keyEntries(in);
        QCOMPARE(entries.size(), 4);
        QCOMPARE(entries[0].role, MarkRole::RunModel);
        QCOMPARE(entries[0].text, QStringLiteral("run without counters,\nat the model's AI"));
        QCOMPARE(entries[1].role, MarkRole::RunMeasured);
        QCOMPARE(entries[2].role, MarkRole::RunLevel);
        QCOMPARE(entries[2].level, std::optional(MemoryLevel::L1Shared));
        QCOMPARE(entries[2].text, QStringLiteral("measured L1/shared AI (counters)"));
        QCOMPARE(entries[3].role, MarkRole::SelectionRing);
        // Every model disc shown: the diamond's entry says it is dotted to it.
        in.showModel = true;
        QVERIFY(keyEntries(in)[1].text.contains(QStringLiteral("dotted to the model's")));
    }

    void titleNamesTheGpuAndItsRuns()
    {
        TitleInputs in;
        QCOMPARE(chartTitle(in), QStringLiteral("Roofline: no GPU chosen — no run measured on it"));
        in.gpuName = QStringLiteral("NVIDIA H200 SXM");
        in.drawn = 1;
        QCOMPARE(chartTitle(in), QStringLiteral("Roofline: NVIDIA H200 SXM — 1 run measured on it"));
        // The runs' own name for the GPU where they share one.
        in.runDevices = {QStringLiteral("NVIDIA H200")};
        in.drawn = 23;
        QCOMPARE(chartTitle(in), QStringLiteral("Roofline: NVIDIA H200 — 23 runs measured on it"));
        in.runDevices << QStringLiteral("NVIDIA H200 NVL");
        QCOMPARE(chartTitle(in), QStringLiteral("Roofline: NVIDIA H200 SXM — 23 runs measured on it"));
        in.worklogOverlay = true;
        QVERIFY(chartTitle(in).endsWith(QStringLiteral("measured on it, the worklog's T4 results")));
        TitleInputs t4;
        t4.gpuName = QStringLiteral("NVIDIA T4");
        t4.runDevices = {QStringLiteral("Tesla T4")};
        t4.drawn = 12;
        t4.published = true;
        QCOMPARE(chartTitle(t4), QStringLiteral("Roofline: NVIDIA T4 — 12 published worklog run(s)"));
    }
};

QTEST_MAIN(TestRooflineScene)
#include "tst_roofline_scene.moc"
