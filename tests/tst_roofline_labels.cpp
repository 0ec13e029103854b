// The roofline's texts with the whole H200 ladder loaded,
// at the sizes the Ladder workspace gives the chart: no label or leader on a roof, a
// dotted join, a marker or another label; no leader through another run's marker; every label
// nearer its own marker than any other (else it reads as that one's); ridge labels nearer their
// own ridge than the other; a shared label names each run with its throughput; each run drawn once
// (its disc only where selected); measured and datasheet roofs told apart by colour and stroke.
// Written against what the chart showed before these rules (markerRects, roofSegments, points,
// the plot's items), so the same checks run on the old placement and fail there.
#include "chart_layout.h"
#include "plot_theme.h"
#include "roofline_chart.h"
#include "roofline_label_placer.h"
#include "roofline_math.h"
#include "run_color.h"
#include "runtime_series.h"
#include "support/full_ladder_roofline.h"
#include "swatch_list_text.h"

#include <QCheckBox>
#include <QRegularExpression>
#include <QtTest>
#include <array>
#include <cmath>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

// The runs a label names: "3", "6, 7", or a line a place ("8, 7\n5a").
QStringList namesIn(const QString &text)
{
    QStringList names;
    for (const QString &line : text.split(QLatin1Char('\n')))
        for (const QString &part : line.split(QLatin1Char(',')))
            names << part.trimmed();
    return names;
}

double distanceTo(const QRectF &rect, const QPointF &p)
{
    const double dx = std::max({rect.left() - p.x(), 0.0, p.x() - rect.right()});
    const double dy = std::max({rect.top() - p.y(), 0.0, p.y() - rect.bottom()});
    return std::hypot(dx, dy);
}

bool near(const QPointF &a, const QPointF &b)
{
    return QLineF(a, b).length() <= 0.75;
}

QString rectText(const QRectF &r)
{
    return QStringLiteral("%1,%2 %3x%4")
        .arg(r.x(), 0, 'f', 1)
        .arg(r.y(), 0, 'f', 1)
        .arg(r.width(), 0, 'f', 1)
        .arg(r.height(), 0, 'f', 1);
}

int colourDistance(const QColor &a, const QColor &b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
}

} // namespace

class TstRooflineLabels : public QObject {
    Q_OBJECT

private slots:
    // The swatches are drawn where the list's lines are, in their colours (QCPItemText::draw leaves
    // the painter translated: drawn after it without restoring, they fell outside the plot).
    void swatchesAreDrawnBesideTheirLines()
    {
        QCustomPlot plot;
        plot.resize(300, 200);
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
        auto *list = new SwatchListText(&plot);
        list->setFont(QFont(QApplication::font().family(), 8));
        list->setText(QStringLiteral("a: 1.0\nb: 2.0"));
        list->setPadding(QMargins(2 + SwatchListText::kSwatchRoom, 2, 3, 2));
        list->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        list->position->setType(QCPItemPosition::ptAbsolute);
        list->position->setCoords(100, 60);
        const QColor red(0xd6, 0x27, 0x28), blue(0x1f, 0x77, 0xb4);
        list->setSwatches({SwatchListText::Swatch{red, SwatchListText::Shape::Diamond},
                           SwatchListText::Swatch{blue, SwatchListText::Shape::Disc}});
        list->setClipToAxisRect(false);
        const QImage image = plot.toPixmap(300, 200, 1.0).toImage();
        const QRectF box = labelRect(list);
        const double lineHeight = (box.height() - 4) / 2;
        const auto pixelAt = [&](int line) {
            const QPoint at(int(box.left() + 2 + SwatchListText::kSwatchRoom / 2.0),
                            int(box.top() + 2 + (line + 0.5) * lineHeight));
            return image.pixelColor(at);
        };
        QCOMPARE(pixelAt(0), red);
        QCOMPARE(pixelAt(1), blue);
    }

    // A stage's presets (4, 5a, 5b; 8 and 8/BK8) are drawn in the runtime chart's shades of the
    // stage's colour: in one colour the crowd at ~330 FLOP/B could not be told apart by its list.
    void presetsOfAStageHaveTheirOwnShade()
    {
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        QVERIFY(!test::showFullLadder(chart, ladder).isEmpty());
        QHash<QRgb, QString> labelOf;
        int measured = 0;
        for (const RooflineChart::ChartPoint &p : chart.points()) {
            if (p.kind != RooflineChart::PointKind::RunMeasured)
                continue;
            ++measured;
            const QString label = p.label.section(QLatin1Char(' '), 0, 0);
            const QString known = labelOf.value(p.color.rgb(), label);
            QVERIFY2(
                known == label,
                qPrintable(QStringLiteral("%1 and %2 in one colour %3").arg(known, label, p.color.name())));
            labelOf.insert(p.color.rgb(), label);
        }
        QVERIFY2(measured >= 15, qPrintable(QString::number(measured)));
    }

    // Runs of different stages are told apart by colour, not only the shades of one stage: the
    // register-prefetch pipeline's teal lay 18 CIE76 units from the mma stage's green and 27 from
    // step 5b's cyan, and +tuned read as 5a in the roofline's crowd.
    void stagesAreToldApartByColour()
    {
        const auto lab = [](const QColor &c) {
            const auto linear = [](double v) {
                return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
            };
            const double r = linear(c.redF()), g = linear(c.greenF()), b = linear(c.blueF());
            const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
                         y = 0.2126 * r + 0.7152 * g + 0.0722 * b,
                         z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
            const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
            return std::array<double, 3>{116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
        };
        const test::FullLadder ladder = test::loadFullLadder();
        double closest = 1e9;
        QString pair;
        for (qsizetype i = 0; i < ladder.runs.size(); ++i)
            for (qsizetype j = i + 1; j < ladder.runs.size(); ++j) {
                const RunRecord &a = ladder.runs[i], &b = ladder.runs[j];
                if (a.stageKey() == b.stageKey())
                    continue; // a stage's presets are its shades
                const auto p = lab(runColor(a)), q = lab(runColor(b));
                const double distance = std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
                if (distance < closest) {
                    closest = distance;
                    pair = QStringLiteral("%1 and %2").arg(a.presetKey, b.presetKey);
                }
            }
        QVERIFY2(closest >= 25, qPrintable(QStringLiteral("%1: %2 apart").arg(pair).arg(closest, 0, 'f', 1)));
    }

    // Neighbours on the ladder differ in lightness, not only in hue: steps 7 and 8 (blue and
    // purple) were as light as each other, one colour to a reader who does not tell those hues
    // apart, and step 2's yellow-green lay as light as step 1's orange.
    void ladderNeighboursDifferInLightness()
    {
        const auto lightness = [](const QColor &c) {
            const auto linear = [](double v) {
                return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
            };
            const double y =
                0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
            return 116 * (y > 0.008856 ? std::cbrt(y) : 7.787 * y + 16.0 / 116) - 16; // CIE L*
        };
        QStringList stages; // the ladder's stages in its order, each once
        for (const RunRecord &run : ladderOrdered(test::loadFullLadder().runs))
            if (!stages.contains(run.stageKey()))
                stages << run.stageKey();
        QVERIFY(stages.size() >= 12);
        for (qsizetype i = 1; i < stages.size(); ++i) {
            const double step =
                std::abs(lightness(stageColor(stages[i])) - lightness(stageColor(stages[i - 1])));
            QVERIFY2(step >= 12, qPrintable(QStringLiteral("%1 and %2: %3 apart in L*")
                                                .arg(stages[i - 1], stages[i])
                                                .arg(step, 0, 'f', 1)));
        }
    }

    void fullLadderLabelsReadAsTheirOwn_data()
    {
        // With each run once (the default), and with every run's model point asked for ("Traffic model").
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("model");
        for (const QSize size : {QSize(620, 390), QSize(700, 440), QSize(940, 530), QSize(480, 300)})
            for (const bool model : {false, true})
                QTest::addRow("%dx%d%s", size.width(), size.height(), model ? " model AI" : "")
                    << size << model;
    }
    void fullLadderLabelsReadAsTheirOwn()
    {
        QFETCH(QSize, size);
        QFETCH(bool, model);
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        const QString selected = test::showFullLadder(chart, ladder);
        QVERIFY(!selected.isEmpty());
        if (model) {
            QCheckBox *check = chart.findChild<QCheckBox *>(QStringLiteral("rooflineModelCheck"));
            QVERIFY(check);
            check->setChecked(true);
        }
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.customPlot();
        for (int i = 0; i < 3; ++i)
            plot->replot(QCustomPlot::rpImmediateRefresh);
        test::saveShot(&chart, QStringLiteral("roofline-labels-%1x%2%3")
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(model ? QStringLiteral("-model") : QString()));

        auto pixel = [plot](double x, double y) {
            return QPointF(plot->xAxis->coordToPixel(x), plot->yAxis->coordToPixel(y));
        };
        const QList<RooflineChart::ChartPoint> points = chart.points();
        const QList<QRectF> markers = chart.markerRects();
        const QList<QLineF> roofs = chart.roofSegments();
        QList<QPointF> centres;
        for (const QRectF &m : markers)
            centres << m.center();
        const auto markerAt = [&](const QPointF &at) {
            return std::any_of(centres.cbegin(), centres.cend(),
                               [&](const QPointF &c) { return near(c, at); });
        };

        // Each run once: no disc at the model's intensity for a run measured with counters, but for the
        // selected run; and the dotted joins only where both ends are drawn.
        QList<QLineF> joins;
        int discs = 0;
        QPointF selectedModel;
        for (const auto &p : points)
            if (p.kind == RooflineChart::PointKind::RunPredicted && p.runId == selected)
                selectedModel = pixel(p.intensity, p.tflops);
        for (int i = 0; i + 1 < points.size(); ++i) {
            const auto &p = points[i], &m = points[i + 1];
            if (p.kind != RooflineChart::PointKind::RunPredicted ||
                m.kind != RooflineChart::PointKind::RunMeasured || m.runId != p.runId)
                continue;
            const QPointF model = pixel(p.intensity, p.tflops);
            if (!markerAt(model))
                continue;
            joins << QLineF(model, pixel(m.intensity, m.tflops));
            if (p.runId != selected &&
                !near(model, selectedModel)) { // another run of the selected's configuration
                ++discs;
                qWarning("%s (%s) drawn at the model's intensity too", qPrintable(p.runId),
                         qPrintable(p.label));
            }
        }
        if (model)
            QVERIFY2(discs >= 20 && joins.size() >= 20, qPrintable(QString::number(discs)));
        else
            QVERIFY2(discs == 0,
                     qPrintable(QStringLiteral("%1 runs drawn twice (disc and diamond)").arg(discs)));
        QVERIFY2(model || (!joins.isEmpty() && joins.size() <= 2),
                 qPrintable(QString::number(joins.size()))); // the selected run's

        // The texts on the plot and the markers each names.
        struct Label {
            QString text;
            QRectF rect;
            QList<QPointF> own;
            bool ridge;
        };
        QList<Label> labels;
        QList<QPointF> ridges;
        for (const RooflineChart::Roof &roof : chart.roofs())
            if (roof.ridge)
                ridges << roof.ridge->position->pixelPosition();
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            if (!text || !text->visible() || text->position->type() != QCPItemPosition::ptPlotCoords)
                continue;
            // What is drawn: the text, and a list's swatches (a copy of each run's marker) left of it.
            QMarginsF drawn(text->padding());
            if (const auto *list = dynamic_cast<const SwatchListText *>(text);
                list && !list->swatches().isEmpty())
                drawn.setLeft(drawn.left() - SwatchListText::kSwatchRoom);
            Label label{text->text(), labelRect(text).marginsRemoved(drawn), {}, false};
            // A list names each place beside a copy of its marker, in its stage's colour.
            if (const auto *list = dynamic_cast<const SwatchListText *>(text);
                list && label.text.contains(QLatin1Char('\n'))) {
                const QStringList lines = label.text.split(QLatin1Char('\n'));
                QCOMPARE(list->swatches().size(), lines.size());
                for (qsizetype line = 0; line < lines.size(); ++line) {
                    const QString name = lines[line].section(QLatin1Char(','), 0, 0).trimmed();
                    const auto named = std::find_if(points.cbegin(), points.cend(), [&](const auto &p) {
                        return p.label == name && p.kind == RooflineChart::PointKind::RunMeasured;
                    });
                    QVERIFY2(named != points.cend() && list->swatches()[line].color == named->color &&
                                 list->swatches()[line].shape == SwatchListText::Shape::Diamond &&
                                 named->color.isValid(),
                             qPrintable(lines[line]));
                }
            }
            if (const auto ridge =
                    QRegularExpression(QStringLiteral("^ridge ([0-9.]+) FLOP/B$")).match(label.text);
                ridge.hasMatch()) {
                label.ridge = true;
                for (const RooflineChart::Roof &roof : chart.roofs())
                    if (const double at = roofline::ridgeIntensity(roof.peakTflops, roof.bandwidthGBs);
                        roof.ridge && std::abs(ridge.captured(1).toDouble() - at) <= 0.005 * at)
                        label.own << roof.ridge->position->pixelPosition();
            } else {
                const QStringList names = namesIn(label.text);
                for (const auto &p : points)
                    if (names.contains(p.label))
                        label.own << pixel(p.intensity, p.tflops);
            }
            QVERIFY2(!label.own.isEmpty(),
                     qPrintable(QStringLiteral("\"%1\" names nothing drawn").arg(label.text)));
            labels << label;
        }
        // At 480x300 (the parameter panel shown) most clusters go unnamed, and with every run's model
        // point asked for the rows of dotted joins leave few places free: the tooltip names them.
        QVERIFY2(model || size == QSize(480, 300) || labels.size() >= 10,
                 qPrintable(QString::number(labels.size())));
        QList<QLineF> leaders;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *line = qobject_cast<QCPItemLine *>(plot->item(i)); line && line->visible())
                leaders << QLineF(line->start->pixelPosition(), line->end->pixelPosition());

        for (const Label &l : labels) {
            const QRectF inner = l.rect.adjusted(1, 1, -1, -1);
            for (const QLineF &roof : roofs)
                QVERIFY2(
                    !segmentCrossesRect(roof, inner),
                    qPrintable(QStringLiteral("a roof through \"%1\" at %2").arg(l.text, rectText(l.rect))));
            for (const QLineF &join : joins)
                QVERIFY2(!segmentCrossesRect(join, inner),
                         qPrintable(QStringLiteral("a dotted join through \"%1\"").arg(l.text)));
            for (const QRectF &m : markers)
                QVERIFY2(!m.intersects(inner), qPrintable(QStringLiteral("\"%1\" at %2 on the marker at %3")
                                                              .arg(l.text, rectText(l.rect), rectText(m))));
            for (const Label &o : labels)
                QVERIFY2(&o == &l || !o.rect.intersects(inner),
                         qPrintable(QStringLiteral("\"%1\" on \"%2\"").arg(l.text, o.text)));
            // Nearer its own marker than any other (a ridge label: than any other ridge).
            double own = std::numeric_limits<double>::infinity();
            for (const QPointF &o : l.own)
                own = std::min(own, distanceTo(l.rect, o));
            for (const QPointF &c : l.ridge ? ridges : centres) {
                const bool mine =
                    std::any_of(l.own.cbegin(), l.own.cend(), [&](const QPointF &o) { return near(o, c); });
                QVERIFY2(mine || distanceTo(l.rect, c) >= own,
                         qPrintable(QStringLiteral(
                                        "\"%1\" at %2 is %3 px from the marker at %4,%5, %6 px from its own")
                                        .arg(l.text, rectText(l.rect))
                                        .arg(distanceTo(l.rect, c), 0, 'f', 1)
                                        .arg(c.x(), 0, 'f', 0)
                                        .arg(c.y(), 0, 'f', 0)
                                        .arg(own, 0, 'f', 1)));
            }
        }
        // A text naming several runs says which is which: a list, a line a place, each line's leader to
        // its marker; or one line naming runs whose markers lie on each other (one marker is seen).
        for (const RooflineChart::LabelLayout &l : chart.labelLayout()) {
            if (l.ridge || l.anchors.size() < 2)
                continue;
            if (l.lines.isEmpty()) {
                for (const QPointF &a : l.anchors)
                    QVERIFY2(
                        QLineF(a, l.anchors.first()).length() <= 1.5,
                        qPrintable(QStringLiteral("\"%1\" does not say which run is which").arg(l.text)));
                continue;
            }
            QCOMPARE(l.lines.size(), l.text.count(QLatin1Char('\n')) + 1);
            for (const RooflineChart::LabelLayout::Line &line : l.lines)
                QVERIFY2(
                    std::any_of(leaders.cbegin(), leaders.cend(),
                                [&](const QLineF &drawn) {
                                    return QLineF(drawn.p1(), line.leader.p1()).length() < 0.5 &&
                                           QLineF(drawn.p2(), line.leader.p2()).length() < 0.5;
                                }),
                    qPrintable(QStringLiteral("no leader to %1").arg(line.names.join(QLatin1Char(',')))));
        }
        // Leaders: from their own marker, through no other marker, across no roof and no label.
        for (const QLineF &leader : leaders) {
            const auto owner = std::find_if(labels.cbegin(), labels.cend(), [&](const Label &l) {
                // A leader ends at the text's padded box: 2 px off the text on a list's side, 2.8 at a
                // corner.
                return distanceTo(l.rect, leader.p2()) <= 3.0 || distanceTo(l.rect, leader.p1()) <= 3.0;
            });
            QString nearest;
            for (const Label &l : labels)
                nearest +=
                    QStringLiteral(" \"%1\" %2 (%3 px)")
                        .arg(l.text.left(12), rectText(l.rect))
                        .arg(std::min(distanceTo(l.rect, leader.p2()), distanceTo(l.rect, leader.p1())), 0,
                             'f', 1);
            QVERIFY2(owner != labels.cend(),
                     qPrintable(QStringLiteral("a leader %1,%2 - %3,%4 to no label:%5")
                                    .arg(leader.x1())
                                    .arg(leader.y1())
                                    .arg(leader.x2())
                                    .arg(leader.y2())
                                    .arg(nearest)));
            for (const QLineF &roof : roofs)
                QVERIFY2(roof.intersects(leader, nullptr) != QLineF::BoundedIntersection,
                         qPrintable(QStringLiteral("the leader of \"%1\" crosses a roof").arg(owner->text)));
            for (const QRectF &m : markers) {
                // Its own, or drawn around its own (the current settings' circle on a ridge).
                const bool mine = std::any_of(owner->own.cbegin(), owner->own.cend(), [&](const QPointF &o) {
                    return near(o, m.center()) || m.contains(o);
                });
                QVERIFY2(mine || !segmentCrossesRect(leader, m.adjusted(0.5, 0.5, -0.5, -0.5)),
                         qPrintable(QStringLiteral("the leader of \"%1\" passes the marker at %2")
                                        .arg(owner->text, rectText(m))));
            }
            for (const Label &o : labels)
                QVERIFY2(&o == &*owner || !segmentCrossesRect(leader, o.rect.adjusted(1, 1, -1, -1)),
                         qPrintable(
                             QStringLiteral("the leader of \"%1\" crosses \"%2\"").arg(owner->text, o.text)));
        }
    }

    // The placer's rules on their own: beside its marker where that is free, never nearer another
    // marker, never across a line; nothing where every place breaks a rule.
    void placerKeepsEachLabelByItsOwnMarker()
    {
        namespace rl = roofline_labels;
        rl::Scene scene;
        scene.bounds = QRectF(0, 0, 300, 200);
        const auto marker = [](double x, double y) { return rl::Marker{QRectF(x - 5, y - 5, 10, 10)}; };
        scene.markers = {marker(100, 100), marker(116, 100), marker(100, 60)};
        scene.lines = {QLineF(0, 130, 300, 130)}; // a roof under them
        const QList<rl::Request> requests{
            {QSizeF(30, 12), {0}}, {QSizeF(30, 12), {1}}, {QSizeF(30, 12), {2}}};
        const QList<rl::Placement> placed = rl::place(scene, requests);
        QCOMPARE(placed.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QVERIFY(placed[i].placed);
            QVERIFY(rl::nearestIsOwn(placed[i].rect, {scene.markers[i].centre()}, scene.markers));
            QVERIFY(!segmentCrossesRect(scene.lines.first(), placed[i].rect));
            for (const rl::Marker &m : scene.markers)
                QVERIFY(!m.rect.intersects(placed[i].rect.adjusted(1, 1, -1, -1)));
            for (int j = 0; j < i; ++j)
                QVERIFY(!placed[j].rect.intersects(placed[i].rect));
        }
        // Boxed in by lines on every side, with no way out for a leader: left unplaced.
        rl::Scene boxed;
        boxed.bounds = scene.bounds;
        boxed.markers = {marker(100, 100)};
        boxed.lines = {QLineF(90, 90, 110, 90), QLineF(110, 90, 110, 110), QLineF(110, 110, 90, 110),
                       QLineF(90, 110, 90, 90)};
        const rl::Placement inBox = rl::place(boxed, {{QSizeF(30, 12), {0}}}).first();
        QVERIFY2(!inBox.placed, qPrintable(QStringLiteral("%1,%2 %3 leader %4")
                                               .arg(inBox.rect.x())
                                               .arg(inBox.rect.y())
                                               .arg(inBox.rect.width())
                                               .arg(inBox.leader ? inBox.leader->length() : -1)));
    }

    // A label level with another marker reads as that marker's even when its own is a little nearer:
    // step 3's "3", above its diamond, stood beside step 2's at 1280x800 ("2 ◆ 3").
    // Another marker must be 2.5 times as far as its own, unless a leader says whose it is.
    void labelIsNotLevelWithANeighbour()
    {
        namespace rl = roofline_labels;
        rl::Scene scene;
        scene.bounds = QRectF(0, 0, 300, 200);
        const auto marker = [](double x, double y) { return rl::Marker{QRectF(x - 4.5, y - 4.5, 9, 9)}; };
        // Step 2 up left of step 3; a column of faster runs right of it, step 4 below left.
        scene.markers = {marker(103, 101), marker(116, 110), marker(136, 104),
                         marker(136, 112), marker(136, 120), marker(106, 123)};
        const rl::Placement three = rl::place(scene, {{QSizeF(9, 14), {1}}}).first();
        QVERIFY(three.placed);
        // Beside it, others 2.5 times as far; or farther out, joined by a leader one sees, and nearer its
        // own.
        const double own = rl::distanceTo(three.rect, scene.markers[1].centre());
        QVERIFY(!three.leader || three.leader->length() >= 5);
        const double ratio = three.leader ? 1.0 : 2.5;
        for (const int other : {0, 2, 3, 4, 5})
            QVERIFY2(rl::distanceTo(three.rect, scene.markers[other].centre()) >= ratio * own,
                     qPrintable(QStringLiteral("%1 px from marker %2, %3 px from its own, at %4,%5")
                                    .arg(rl::distanceTo(three.rect, scene.markers[other].centre()))
                                    .arg(other)
                                    .arg(own)
                                    .arg(three.rect.x())
                                    .arg(three.rect.y())));
    }

    // Measured roofs and the datasheet's are told apart at a glance: another colour and another
    // stroke, for FP32 and for TF32 (the two purple TF32 roofs read as one).
    void measuredAndDatasheetRoofsDiffer()
    {
        const test::FullLadder ladder = test::loadFullLadder();
        RooflineChart chart;
        test::showRunsUnderTheirCeilings(chart, ladder);
        int pairs = 0;
        for (const RooflineChart::Roof &measured : chart.roofs())
            for (const RooflineChart::Roof &datasheet : chart.roofs()) {
                if (!measured.measured || datasheet.measured || measured.level || datasheet.level)
                    continue;
                const bool tensor = measured.label.contains(QStringLiteral("TF32"));
                if (tensor != datasheet.label.contains(QStringLiteral("TF32")))
                    continue;
                ++pairs;
                const QPen a = measured.graph->pen(), b = datasheet.graph->pen();
                QVERIFY2(colourDistance(a.color(), b.color()) >= 100,
                         qPrintable(
                             QStringLiteral("%1 %2 vs %3 %4")
                                 .arg(measured.label, a.color().name(), datasheet.label, b.color().name())));
                QVERIFY(a.style() != b.style());
                QVERIFY(a.widthF() > b.widthF());
            }
        QCOMPARE(pairs, 2);
    }
};

QTEST_MAIN(TstRooflineLabels)
#include "tst_roofline_labels.moc"
