// The roofline's texts: the runs' short labels, the ridges' and the levels' names, placed in pixels
// after every layout of the axes (roofline_label_placer.h holds the rules). Split from
// roofline_chart.cpp, which draws what they name.
#include "chart_layout.h"
#include "roofline_chart.h"
#include "roofline_joins.h"
#include "roofline_label_scene.h"
#include "roofline_math.h"
#include "swatch_list_text.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <qcustomplot.h>

namespace gemmscope {

namespace {

const QColor kLabelColor(0x20, 0x20, 0x20);

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
            m_labelScene.forget();
            continue;
        }
        if (m_labels.size() >= roofline_scene::kMaxPointLabels)
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
        m_labelScene.forget();
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

roofline_scene::MarkRole RooflineChart::markRoleOf(const QCPGraph *graph) const
{
    using roofline_scene::MarkRole;
    if (graph == m_liveGraph)
        return MarkRole::Live;
    if (graph == m_selectedGraph)
        return MarkRole::SelectionRing;
    if (graph == m_selectedModelGraph)
        return MarkRole::SelectedModel;
    return m_graphRoles.value(graph, MarkRole::RunModel);
}

roofline_scene::CacheKey RooflineChart::labelKey() const
{
    roofline_scene::CacheKey key;
    key.frame = roofline_scene::PlotFrame{m_plot->axisRect()->rect(), m_plot->xAxis->range().lower,
                                          m_plot->xAxis->range().upper, m_plot->yAxis->range().lower,
                                          m_plot->yAxis->range().upper};
    key.fontFamily = font().family();
    for (int i = 0; i < m_plot->graphCount(); ++i)
        key.markCount += m_plot->graph(i)->dataCount();
    // The marks that move while no run changes, by what they are (a graph of one or two runs is no
    // live point).
    for (QCPGraph *graph : {m_liveGraph, m_selectedGraph, m_selectedModelGraph})
        if (graph && graph->visible())
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                key.moving << roofline_scene::Mark{markRoleOf(graph), it->key, it->value, 0};
    for (const PointLabel &l : std::as_const(m_labels))
        key.labels << roofline_scene::PointLabel{
            l.kind == PointKind::RunMeasured ? roofline_scene::MarkRole::RunMeasured
            : l.kind == PointKind::WorklogT4 ? roofline_scene::MarkRole::Published
                                             : roofline_scene::MarkRole::RunModel,
            l.intensity, l.tflops, l.texts, l.color};
    key.ridges = m_ridgeTexts;
    if (m_countersNote)
        key.note = m_countersNote->text();
    return key;
}

roofline_scene::Inputs RooflineChart::labelInputs(const roofline_scene::CacheKey &key) const
{
    roofline_scene::Inputs in{key, {}, {}, {}};
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph *graph = m_plot->graph(i);
        const QCPScatterStyle style = graph->scatterStyle();
        if (!graph->visible() || style.isNone() || graph->lineStyle() != QCPGraph::lsNone)
            continue;
        const double radius = style.size() / 2 + style.pen().widthF() / 2 + 0.5;
        const roofline_scene::MarkRole role = markRoleOf(graph);
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            in.marks << roofline_scene::Mark{role, it->key, it->value, radius};
    }
    for (const Roof &roof : m_roofs) {
        roofline_scene::Polyline line;
        for (auto it = roof.graph->data()->constBegin(); it != roof.graph->data()->constEnd(); ++it)
            line.points << QPointF(it->key, it->value);
        in.roofs << line;
        if (roof.ridge)
            in.marks << roofline_scene::Mark{roofline_scene::MarkRole::Ridge, roof.ridge->position->key(),
                                             roof.ridge->position->value(), 3.5};
    }
    if (m_drawn.joins)
        in.joins = m_drawn.joins->drawnPolylines();
    return in;
}

void RooflineChart::placePointLabels()
{
    // Runs inside each replot, after the layout and before the drawing (afterLayout): what is placed
    // here is what that replot draws. Where nothing the texts depend on changed (a run arrived on a
    // spot already drawn, a repaint), they stay where they are.
    const roofline_scene::CacheKey key = labelKey();
    if (m_labelScene.placedFor(key))
        return;
    applyLabelLayout(m_labelScene.place(labelInputs(key)));
}

namespace {

void applyText(QCPItemText *item, QCPItemLine *leader, const roofline_scene::PlacedText &text)
{
    item->setVisible(text.visible);
    if (leader)
        leader->setVisible(text.visible && text.leader.has_value());
    if (!text.visible)
        return;
    item->setPadding(text.padding);
    item->setPen(text.framed ? QPen(QColor(0x99, 0x99, 0x99)) : QPen(Qt::NoPen));
    item->setBrush(text.framed ? QBrush(QColor(255, 255, 255, 235)) : QBrush(Qt::NoBrush));
    item->setPositionAlignment(text.align);
    item->position->setPixelPosition(text.anchor);
    if (text.leader && leader) {
        leader->start->setPixelPosition(text.leader->p1());
        leader->end->setPixelPosition(text.leader->p2());
    }
}

SwatchListText::Shape swatchShape(roofline_scene::SwatchShape shape)
{
    switch (shape) {
    case roofline_scene::SwatchShape::Diamond:
        return SwatchListText::Shape::Diamond;
    case roofline_scene::SwatchShape::Square:
        return SwatchListText::Shape::Square;
    default:
        return SwatchListText::Shape::Disc;
    }
}

} // namespace

void RooflineChart::applyLabelLayout(const roofline_scene::Layout &layout)
{
    static_assert(roofline_scene::kSwatchRoom == SwatchListText::kSwatchRoom);
    if (m_countersNote) {
        const bool top = layout.note == roofline_scene::NoteCorner::TopLeft;
        const Qt::Alignment align = top ? Qt::AlignLeft | Qt::AlignTop : Qt::AlignRight | Qt::AlignBottom;
        m_countersNote->position->setCoords(top ? 0.01 : 0.99, top ? 0.01 : 0.99);
        m_countersNote->setPositionAlignment(align);
        m_countersNote->setTextAlignment(align & Qt::AlignHorizontal_Mask);
    }
    for (qsizetype i = 0; i < m_ridgeLabels.size(); ++i)
        applyText(m_ridgeLabels[i],
                  qobject_cast<QCPItemLine *>(m_ridgeLabels[i]->property("leader").value<QObject *>()),
                  layout.ridges[i]);
    for (qsizetype i = 0; i < m_labels.size(); ++i) {
        const PointLabel &label = m_labels[i];
        const roofline_scene::PlacedText &text = layout.labels[i];
        label.item->position->setCoords(label.intensity, label.tflops);
        label.item->setText(text.visible ? text.text : label.texts.join(QLatin1Char(',')));
        QList<SwatchListText::Swatch> swatches;
        for (const roofline_scene::Swatch &s : text.swatches)
            swatches << SwatchListText::Swatch{s.color, swatchShape(s.shape)};
        label.item->setSwatches(swatches);
        if (text.visible)
            label.item->setFont(QFont(font().family(), text.pointSize));
        applyText(label.item, label.leader, text);
    }
    m_layout.clear();
    for (const roofline_scene::Layout::Entry &e : layout.placed)
        m_layout << LabelLayout{e.text, e.rect, e.anchors, e.leader, e.ridge};
}

QList<QLineF> RooflineChart::joinSegments() const
{
    return m_drawn.joins ? m_drawn.joins->pixelSegments() : QList<QLineF>();
}

} // namespace gemmscope
