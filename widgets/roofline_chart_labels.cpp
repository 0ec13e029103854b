// The roofline's texts: the runs' short labels, the ridges' and the levels' names, placed in pixels
// after every layout of the axes (roofline_label_placer.h holds the rules). Split from
// roofline_chart.cpp, which draws what they name.
#include "chart_layout.h"
#include "roofline_chart.h"
#include "roofline_joins.h"
#include "roofline_label_placer.h"
#include "roofline_math.h"
#include "swatch_list_text.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <qcustomplot.h>

namespace gemmscope {

namespace {

// More places than this get no label of their own (a sweep of thousands of configurations): no plot
// holds more, and each one was placed against all the others at every replot. Hover names them.
constexpr qsizetype kMaxPointLabels = 150;
// Markers closer than this (pixels, centre to centre) cannot be told apart by where a label sits:
// they share one label that names each of them with its throughput, top to bottom as they lie.
constexpr double kLabelMergePx = 10;
const QColor kLabelColor(0x20, 0x20, 0x20);

QString tflopsText(double tflops)
{
    return QString::number(tflops, 'f', tflops < 10 ? 2 : (tflops < 100 ? 1 : 0));
}

// A list line's swatch is a copy of the marker it names.
SwatchListText::Shape swatchShape(RooflineChart::PointKind kind)
{
    switch (kind) {
    case RooflineChart::PointKind::RunMeasured:
        return SwatchListText::Shape::Diamond;
    case RooflineChart::PointKind::WorklogT4:
        return SwatchListText::Shape::Square;
    default:
        return SwatchListText::Shape::Disc;
    }
}

} // namespace

void RooflineChart::addPointLabels(qsizetype from)
{
    // One label per run's shown marker (its measured diamond where counters exist, else its disc);
    // runs of one label on the same spot (the same configuration run again) share it. Placed in
    // pixels by placePointLabels after the axes are laid out, where markers too close to tell apart
    // share one label that names each.
    for (qsizetype i = from; i < m_points.size(); ++i) {
        const ChartPoint &p = m_points[i];
        if (p.label.isEmpty() || p.kind == PointKind::Live)
            continue;
        if (p.kind == PointKind::RunPredicted && hasMeasuredPoint(i))
            continue;
        auto near = std::find_if(m_labels.begin(), m_labels.end(), [&](const PointLabel &l) {
            return l.kind == p.kind && l.texts.contains(p.label) &&
                   std::abs(std::log10(l.intensity / p.intensity)) < 1e-3 &&
                   std::abs(std::log10(l.tflops / p.tflops)) < 0.01;
        });
        if (near != m_labels.end())
            continue;
        // Points on the very same spot with other labels share one, as before any zoom.
        near = std::find_if(m_labels.begin(), m_labels.end(), [&](const PointLabel &l) {
            return l.kind == p.kind && std::abs(std::log10(l.intensity / p.intensity)) < 1e-6 &&
                   std::abs(std::log10(l.tflops / p.tflops)) < 1e-6;
        });
        if (near != m_labels.end()) {
            near->texts.append(p.label);
            near->item->setText(near->texts.join(QLatin1Char(',')));
            m_lastPlacement.clear();
            continue;
        }
        if (m_labels.size() >= kMaxPointLabels)
            continue;
        auto *item = new SwatchListText(m_plot);
        item->position->setCoords(p.intensity, p.tflops);
        item->setColor(p.kind == PointKind::WorklogT4 ? kWorklogColor : kLabelColor);
        item->setFont(QFont(font().family(), 8));
        item->setText(p.label);
        item->setTextAlignment(Qt::AlignLeft);
        auto *leader = new QCPItemLine(m_plot);
        leader->setPen(QPen(QColor(0x70, 0x70, 0x70), 0.8));
        leader->setVisible(false);
        m_labels.append({p.kind, p.intensity, p.tflops, {p.label}, item, leader, p.color});
        m_lastPlacement.clear();
    }
}

QList<QRectF> RooflineChart::markerRects() const
{
    QList<QRectF> rects;
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph *graph = m_plot->graph(i);
        const QCPScatterStyle style = graph->scatterStyle();
        if (!graph->visible() || style.isNone() || graph->lineStyle() != QCPGraph::lsNone)
            continue;
        const double r = style.size() / 2 + style.pen().widthF() / 2 + 0.5;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            const QPointF at(m_plot->xAxis->coordToPixel(it->key), m_plot->yAxis->coordToPixel(it->value));
            rects << QRectF(at - QPointF(r, r), QSizeF(2 * r, 2 * r));
        }
    }
    for (const Roof &roof : m_roofs)
        if (roof.ridge) {
            const QPointF at = roof.ridge->position->pixelPosition();
            rects << QRectF(at - QPointF(3.5, 3.5), QSizeF(7, 7));
        }
    return rects;
}

QList<QLineF> RooflineChart::roofSegments() const
{
    QList<QLineF> segments;
    for (const Roof &roof : m_roofs) {
        QPointF previous;
        bool first = true;
        for (auto it = roof.graph->data()->constBegin(); it != roof.graph->data()->constEnd(); ++it) {
            const QPointF at(m_plot->xAxis->coordToPixel(it->key), m_plot->yAxis->coordToPixel(it->value));
            if (!first)
                segments << QLineF(previous, at);
            previous = at;
            first = false;
        }
    }
    return segments;
}

void RooflineChart::placeCountersNoteClear(const QList<QLineF> &lines)
{
    // The note sits in the plot's lower right, under the flat roof; where the chart is narrow
    // (1280x800) its lines reach left to the sloped roof at the bottom, and it moves to the upper
    // left, above the slope, where no run can be (nothing is above its roof at the model's AI).
    if (!m_countersNote)
        return;
    const auto crosses = [&lines](const QRectF &rect) {
        return std::any_of(lines.cbegin(), lines.cend(), [&rect](const QLineF &line) {
            if (rect.contains(line.p1()) || rect.contains(line.p2()))
                return true;
            const QLineF edges[] = {{rect.topLeft(), rect.topRight()},
                                    {rect.topRight(), rect.bottomRight()},
                                    {rect.bottomRight(), rect.bottomLeft()},
                                    {rect.bottomLeft(), rect.topLeft()}};
            return std::any_of(std::begin(edges), std::end(edges), [&line](const QLineF &edge) {
                return line.intersects(edge, nullptr) == QLineF::BoundedIntersection;
            });
        });
    };
    const auto placeAt = [this](double x, double y, Qt::Alignment align) {
        m_countersNote->position->setCoords(x, y);
        m_countersNote->setPositionAlignment(align);
        m_countersNote->setTextAlignment(align & Qt::AlignHorizontal_Mask);
    };
    placeAt(0.99, 0.99, Qt::AlignRight | Qt::AlignBottom);
    if (!crosses(labelRect(m_countersNote)))
        return;
    placeAt(0.01, 0.01, Qt::AlignLeft | Qt::AlignTop);
    if (crosses(labelRect(m_countersNote)))
        placeAt(0.99, 0.99, Qt::AlignRight | Qt::AlignBottom); // neither is clear: where it was
}

void RooflineChart::placePointLabels()
{
    // Runs inside each replot, after the layout and before the drawing (afterLayout): what is placed
    // here is what that replot draws. Placing is the costliest part of a replot; where the axes, the
    // labels and the markers are as they were when the labels were last placed (a run arrived on a
    // spot already drawn, a repaint), they stay where they are.
    qsizetype markers = 0;
    for (int i = 0; i < m_plot->graphCount(); ++i)
        markers += m_plot->graph(i)->dataCount();
    QStringList placement{QString::number(m_labels.size()), QString::number(markers)};
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis})
        placement << QString::number(axis->range().lower, 'g', 12)
                  << QString::number(axis->range().upper, 'g', 12);
    const QRect rect = m_plot->axisRect()->rect();
    placement
        << QStringLiteral("%1 %2 %3 %4").arg(rect.x()).arg(rect.y()).arg(rect.width()).arg(rect.height());
    for (int i = 0; i < m_plot->graphCount(); ++i)
        if (!m_plot->graph(i)->data()->isEmpty() &&
            m_plot->graph(i)->dataCount() < 3) { // the live point, the ring
            const auto it = m_plot->graph(i)->data()->constBegin();
            placement << QString::number(it->key, 'g', 12) << QString::number(it->value, 'g', 12);
        }
    const QString key = placement.join(QLatin1Char(' '));
    if (key == m_lastPlacement)
        return;
    m_lastPlacement = key;
    namespace rl = roofline_labels;
    rl::Scene scene;
    scene.bounds = QRectF(m_plot->axisRect()->rect());
    for (const QRectF &m : markerRects())
        scene.markers << rl::Marker{m, false};
    for (const Roof &roof : std::as_const(m_roofs))
        if (roof.ridge)
            for (rl::Marker &m : scene.markers)
                if (QLineF(m.centre(), roof.ridge->position->pixelPosition()).length() <= 0.75)
                    m.ridge = true;
    scene.lines = roofSegments();
    if (m_drawn.joins)
        scene.lines << m_drawn.joins->pixelSegments();
    placeCountersNoteClear(scene.lines);
    // The levels' names first, beside their lines; then the notes are fixed texts.
    QList<QRectF> obstacles = markerRects();
    if (m_countersNote)
        obstacles << labelRect(m_countersNote);
    const qsizetype fixedFrom = obstacles.size() - (m_countersNote ? 1 : 0);
    placeLevelLabels(obstacles);
    scene.fixed = obstacles.mid(fixedFrom);

    // The markers drawn at a pixel (the smallest first: a ring around a marker is that marker's).
    const auto markersAt = [&scene](const QPointF &at) {
        QList<int> found;
        for (int i = 0; i < scene.markers.size(); ++i)
            if (QLineF(scene.markers[i].centre(), at).length() <= 0.75)
                found << i;
        return found;
    };
    const auto pixelOf = [this](double key, double value) {
        return QPointF(m_plot->xAxis->coordToPixel(key), m_plot->yAxis->coordToPixel(value));
    };
    struct Entry {
        QCPItemText *item;
        QCPItemLine *leader;
        QList<QPointF> anchors;
        bool ridge;
    };
    QList<Entry> entries;
    QList<rl::Request> requests;
    const auto request = [&](QCPItemText *item, QCPItemLine *leader, const QList<QPointF> &anchors,
                             bool ridge) {
        item->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        // A list of several runs is framed as one box: its lines are rows of a small table, not
        // labels of the markers they happen to sit beside (a new user read them so, 2026-12-02).
        const bool list = item->text().contains(QLatin1Char('\n')) && !ridge;
        const auto *swatched = dynamic_cast<const SwatchListText *>(item);
        const int swatchRoom = swatched && !swatched->swatches().isEmpty() ? SwatchListText::kSwatchRoom : 0;
        item->setPadding(list ? QMargins(2 + swatchRoom, 2, 3, 2) : QMargins(1, 0, 1, 0));
        item->setPen(list ? QPen(QColor(0x99, 0x99, 0x99)) : QPen(Qt::NoPen));
        item->setBrush(list ? QBrush(QColor(255, 255, 255, 235)) : QBrush(Qt::NoBrush));
        QList<int> own;
        for (const QPointF &at : anchors)
            for (int m : markersAt(at))
                if (!own.contains(m))
                    own << m;
        if (own.isEmpty()) {
            item->setVisible(false);
            if (leader)
                leader->setVisible(false);
            return;
        }
        entries << Entry{item, leader, anchors, ridge};
        requests << rl::Request{labelRect(item).size(), own, leader != nullptr, ridge};
    };
    // The ridges named first: they sit where the roofs meet, with little room around.
    for (QCPItemText *ridge : std::as_const(m_ridgeLabels)) {
        if (ridge->property("levelBandwidth").toDouble() > 0)
            continue; // placed above, beside its line
        if (!ridge->property("labelled").toBool()) {
            ridge->setVisible(false);
            continue;
        }
        request(ridge, qobject_cast<QCPItemLine *>(ridge->property("leader").value<QObject *>()),
                {pixelOf(ridge->property("ridgeKey").toDouble(), ridge->property("ridgeValue").toDouble())},
                true);
    }
    // The runs' labels: markers too close to tell apart at this zoom share one label, which names
    // each of them with its throughput, in the order they lie (top first).
    const QRectF plotArea(m_plot->axisRect()->rect());
    QList<int> clusterOf(m_labels.size(), -1);
    QList<QList<int>> clusters;
    QList<QPointF> at;
    for (const PointLabel &l : std::as_const(m_labels))
        at << pixelOf(l.intensity, l.tflops);
    QList<int> byHeight(m_labels.size());
    std::iota(byHeight.begin(), byHeight.end(), 0);
    std::stable_sort(byHeight.begin(), byHeight.end(), [&](int a, int b) { return at[a].y() < at[b].y(); });
    for (int i : byHeight) {
        m_labels[i].item->position->setCoords(m_labels[i].intensity, m_labels[i].tflops);
        m_labels[i].item->setText(m_labels[i].texts.join(QLatin1Char(','))); // until a group names it
        m_labels[i].item->setSwatches({});
        m_labels[i].leader->setVisible(false);
        if (!plotArea.contains(at[i])) {
            m_labels[i].item->setVisible(false);
            continue;
        }
        if (clusterOf[i] >= 0)
            continue;
        clusterOf[i] = int(clusters.size());
        // Each within the merge distance of the first (the top one, as the labels come in plot
        // order): a chain of close markers down a column is cut into small groups, not one list
        // as tall as the column.
        QList<int> members{i};
        for (int j : byHeight)
            if (clusterOf[j] < 0 && plotArea.contains(at[j]) &&
                QLineF(at[i], at[j]).length() < kLabelMergePx) {
                clusterOf[j] = clusterOf[i];
                members << j;
            }
        clusters << members;
    }
    // A place whose label finds no room joins its nearest neighbour's, and all are placed again:
    // one label naming both beats a run left unnamed.
    const qsizetype ridgeEntries = entries.size();
    const QList<Entry> ridgeOnly = entries;
    const QList<rl::Request> ridgeRequests = requests;
    QList<rl::Placement> placed;
    for (int attempt = 0;; ++attempt) {
        entries = ridgeOnly;
        requests = ridgeRequests;
        QList<int> clusterOfEntry; // for each request after the ridges: its cluster
        // The most crowded places first: they have the fewest free places around them.
        QList<int> order(clusters.size());
        std::iota(order.begin(), order.end(), 0);
        QList<int> crowd(clusters.size(), 0); // the labelled places within 40 px
        for (int c = 0; c < clusters.size(); ++c)
            for (const QPointF &other : std::as_const(at))
                crowd[c] += QLineF(other, at[clusters[c].first()]).length() < 40;
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return crowd[a] > crowd[b]; });
        for (int c : order) {
            QList<int> &members = clusters[c];
            std::sort(members.begin(), members.end(), [&](int a, int b) {
                return at[a].y() != at[b].y() ? at[a].y() < at[b].y() : at[a].x() < at[b].x();
            });
            const PointLabel &first = m_labels[members.first()];
            SwatchListText *item = first.item;
            QList<QPointF> anchors;
            // A list of several runs in a plot this low takes a point less (the Ladder workspace
            // at 1280x800 leaves the plot ~330 px for a column of thirteen stages; with the swatches
            // at 8 points two lists found no room there).
            item->setFont(QFont(font().family(), members.size() > 2 && plotArea.height() < 360 ? 7 : 8));
            if (members.size() == 1) {
                item->setText(first.texts.join(QLatin1Char(',')));
                item->setSwatches({});
            } else {
                // A line a run, each after a copy of its marker: the list is matched to the crowd
                // by colour and order (top first). (A header line "run: TFLOP/s" cost the 1280x800
                // Ladder three of its labels: the tooltip and the axis give the unit.)
                QStringList lines;
                QList<SwatchListText::Swatch> swatches;
                for (int m : members) {
                    const PointLabel &member = m_labels[m];
                    lines << QStringLiteral("%1: %2").arg(member.texts.join(QLatin1Char(',')),
                                                          tflopsText(member.tflops));
                    swatches << SwatchListText::Swatch{member.color, swatchShape(member.kind)};
                }
                item->setText(lines.join(QLatin1Char('\n')));
                item->setSwatches(swatches);
            }
            for (int m : members) {
                anchors << at[m];
                if (m_labels[m].item != item)
                    m_labels[m].item->setVisible(false);
            }
            const qsizetype before = entries.size();
            request(item, first.leader, anchors, false);
            if (entries.size() > before)
                clusterOfEntry << c;
        }
        placed = rl::place(scene, requests);
        QList<int> unplaced;
        for (qsizetype i = ridgeEntries; i < entries.size(); ++i)
            if (!placed[i].placed)
                unplaced << clusterOfEntry[i - ridgeEntries];
        // A long session (a sweep's hundreds of places) is placed once: each pass costs every
        // label a thousand tries, and its unplaced places are named by hover anyway.
        if (unplaced.isEmpty() || attempt >= (m_labels.size() > 40 ? 0 : 8))
            break;
        // Each unplaced place joins its nearest neighbour (if near and the list stays short).
        QList<int> gone;
        for (int u : std::as_const(unplaced)) {
            if (gone.contains(u))
                continue;
            int nearest = -1;
            double nearestPx = 0;
            for (int c = 0; c < clusters.size(); ++c) {
                if (c == u || gone.contains(c))
                    continue;
                for (int a : clusters[u])
                    for (int b : clusters[c])
                        if (const double d = QLineF(at[a], at[b]).length(); nearest < 0 || d < nearestPx) {
                            nearest = c;
                            nearestPx = d;
                        }
            }
            if (nearest < 0 || nearestPx > 30 || clusters[nearest].size() + clusters[u].size() > 12)
                continue; // nothing near enough to be named with it, or a list too long to find room
            clusters[nearest] << clusters[u];
            gone << u;
        }
        if (gone.isEmpty())
            break;
        std::sort(gone.begin(), gone.end(), std::greater<int>());
        for (int g : std::as_const(gone))
            clusters.removeAt(g);
    }

    m_layout.clear();
    for (int i = 0; i < entries.size(); ++i) {
        const Entry &e = entries[i];
        const rl::Placement &p = placed[i];
        e.item->setVisible(p.placed);
        if (e.leader)
            e.leader->setVisible(p.placed && p.leader.has_value());
        if (!p.placed)
            continue;
        e.item->position->setPixelPosition(p.rect.topLeft());
        if (p.leader && e.leader) {
            e.leader->start->setPixelPosition(p.leader->p1());
            e.leader->end->setPixelPosition(p.leader->p2());
        }
        m_layout << LabelLayout{e.item->text(), labelRect(e.item), e.anchors, p.leader, e.ridge};
    }
    for (QCPItemText *level : std::as_const(m_ridgeLabels))
        if (level->property("levelBandwidth").toDouble() > 0 && level->visible())
            m_layout << LabelLayout{level->text(), labelRect(level), {}, std::nullopt, true};
}

QList<QLineF> RooflineChart::joinSegments() const
{
    return m_drawn.joins ? m_drawn.joins->pixelSegments() : QList<QLineF>();
}

void RooflineChart::placeLevelLabels(QList<QRectF> &obstacles)
{
    // Each level's name just above and left of its diagonal (the side no run reaches), else just
    // below and right of it, at the first height (from the view's middle outwards, in log scale) where
    // it crosses no roof, marker or label; hidden where none is free (the legend names the line).
    const QList<QLineF> roofs = roofSegments();
    const QRectF bounds = QRectF(m_plot->axisRect()->rect()).adjusted(2, 2, -2, -2);
    const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
    const auto clear = [&](const QRectF &rect) {
        const QRectF inner = rect.adjusted(1, 1, -1, -1);
        return bounds.contains(rect) &&
               std::none_of(obstacles.cbegin(), obstacles.cend(),
                            [&](const QRectF &o) { return o.intersects(inner); }) &&
               std::none_of(roofs.cbegin(), roofs.cend(),
                            [&](const QLineF &line) { return segmentCrossesRect(line, inner); });
    };
    for (QCPItemText *label : std::as_const(m_ridgeLabels)) {
        const double bandwidth = label->property("levelBandwidth").toDouble();
        if (!(bandwidth > 0))
            continue;
        const double peak = label->property("ridgeValue").toDouble();
        const double top = std::log10(std::min(y.upper, peak)), bottom = std::log10(y.lower);
        label->setPadding(QMargins(1, 0, 1, 0));
        bool placed = false;
        for (double fraction : {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9}) {
            const double value = std::pow(10.0, bottom + fraction * (top - bottom));
            const double key = value / roofline::bandwidthBound(1, bandwidth);
            if (!x.contains(key))
                continue;
            const QPointF at(m_plot->xAxis->coordToPixel(key), m_plot->yAxis->coordToPixel(value));
            for (const auto &[align, offset] : {std::pair(Qt::AlignRight | Qt::AlignBottom, QPointF(-2, -2)),
                                                std::pair(Qt::AlignLeft | Qt::AlignTop, QPointF(2, 2))}) {
                label->setPositionAlignment(align);
                label->position->setPixelPosition(at + offset);
                if (clear(labelRect(label))) {
                    placed = true;
                    break;
                }
            }
            if (placed)
                break;
        }
        label->setVisible(placed);
        if (placed)
            obstacles << labelRect(label);
    }
}

} // namespace gemmscope
