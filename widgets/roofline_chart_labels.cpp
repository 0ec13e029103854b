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
    // Which labels the points from `from` on bring (roofline_points.h); placed in pixels by
    // placePointLabels after the axes are laid out.
    const QList<qsizetype> grown = roofline_scene::addPointLabels(m_points, from, m_labels);
    for (const qsizetype i : grown)
        if (i < m_labelItems.size())
            m_labelItems[i].item->setText(m_labels[i].texts.join(QLatin1Char(',')));
    const bool added = m_labelItems.size() < m_labels.size();
    while (m_labelItems.size() < m_labels.size())
        addLabelItem(m_labels[m_labelItems.size()]);
    if (added || !grown.isEmpty())
        m_labelScene.forget();
}

void RooflineChart::addLabelItem(const roofline_scene::PointLabel &label)
{
    auto *item = new SwatchListText(m_plot);
    item->position->setCoords(label.intensity, label.tflops);
    item->setColor(label.role == roofline_scene::MarkRole::Published ? kWorklogColor : kLabelColor);
    item->setFont(QFont(font().family(), 8));
    item->setText(label.texts.join(QLatin1Char(',')));
    item->setTextAlignment(Qt::AlignLeft);
    auto *leader = new QCPItemLine(m_plot);
    leader->setPen(QPen(QColor(0x70, 0x70, 0x70), 0.8));
    leader->setVisible(false);
    m_labelItems.append({item, leader});
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
    key.frame = plotFrame();
    key.fontFamily = font().family();
    for (int i = 0; i < m_plot->graphCount(); ++i)
        key.markCount += m_plot->graph(i)->dataCount();
    // The marks that move while no run changes, by what they are (a graph of one or two runs is no
    // live point).
    for (QCPGraph *graph : {m_liveGraph, m_selectedGraph, m_selectedModelGraph})
        if (graph && graph->visible())
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                key.moving << roofline_scene::Mark{markRoleOf(graph), it->key, it->value, 0};
    key.labels = m_labels;
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
        const roofline_scene::PointLabel &label = m_labels[i];
        const LabelItems &items = m_labelItems[i];
        const roofline_scene::PlacedText &text = layout.labels[i];
        items.item->position->setCoords(label.intensity, label.tflops);
        items.item->setText(text.visible ? text.text : label.texts.join(QLatin1Char(',')));
        QList<SwatchListText::Swatch> swatches;
        for (const roofline_scene::Swatch &s : text.swatches)
            swatches << SwatchListText::Swatch{s.color, swatchShape(s.shape)};
        items.item->setSwatches(swatches);
        if (text.visible)
            items.item->setFont(QFont(font().family(), text.pointSize));
        applyText(items.item, items.leader, text);
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
