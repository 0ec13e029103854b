// The roofline's texts: the runs' short labels, the ridges' and the levels' names, placed in pixels
// after every layout of the axes (roofline_label_placer.h holds the rules). Split from
// roofline_chart.cpp, which draws what they name.
#include "chart_layout.h"
#include "help_text_color.h"
#include "roofline_chart.h"
#include "roofline_joins.h"
#include "roofline_label_scene.h"
#include "roofline_math.h"
#include "swatch_list_text.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <qcustomplot.h>

namespace gemmscope {

namespace {

const QColor kLabelColor(0x20, 0x20, 0x20);
// A ridge's dot (drawn 4 or 5 px wide with its pen) and the room it keeps clear.
constexpr double kRidgeDotRadius = 3.5;

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
    m_labelItems.append({item, addLeaderItem(), {}});
}

QCPItemLine *RooflineChart::addLeaderItem()
{
    auto *leader = new QCPItemLine(m_plot);
    leader->setPen(QPen(QColor(0x70, 0x70, 0x70), 0.8));
    leader->setVisible(false);
    return leader;
}

QList<QRectF> RooflineChart::markerRects() const
{
    const roofline_scene::PlotFrame frame = plotFrame();
    QList<QRectF> rects;
    for (const roofline_scene::Mark &m : labelInputs(labelKey()).marks) {
        const QPointF at = frame.pixelOf(m.intensity, m.tflops);
        rects << QRectF(at - QPointF(m.radius, m.radius), QSizeF(2 * m.radius, 2 * m.radius));
    }
    return rects;
}

QList<QLineF> RooflineChart::roofSegments() const
{
    const roofline_scene::PlotFrame frame = plotFrame();
    QList<QLineF> segments;
    for (const Roof &roof : m_roofs)
        for (qsizetype i = 1; i < roof.line.points.size(); ++i)
            segments << QLineF(frame.pixelOf(roof.line.points[i - 1].x(), roof.line.points[i - 1].y()),
                               frame.pixelOf(roof.line.points[i].x(), roof.line.points[i].y()));
    return segments;
}

roofline_scene::CacheKey RooflineChart::labelKey() const
{
    using roofline_scene::MarkRole;
    roofline_scene::CacheKey key;
    key.frame = plotFrame();
    key.fontFamily = font().family();
    key.markCount = m_markers.count();
    for (const Roof &roof : m_roofs)
        key.markCount += roof.line.points.size();
    // The marks that move while no run changes, by what they are.
    for (const MarkRole role : {MarkRole::Live, MarkRole::SelectionRing, MarkRole::SelectedModel})
        key.moving << m_markers.marks(role);
    key.labels = m_labels;
    key.ridges = m_ridgeTexts;
    key.note = m_countersNoteText;
    return key;
}

roofline_scene::Inputs RooflineChart::labelInputs(const roofline_scene::CacheKey &key) const
{
    roofline_scene::Inputs in{key, m_markers.marks(), {}, {}};
    for (const Roof &roof : m_roofs) {
        in.roofs << roof.line;
        if (roof.ridge)
            in.marks << roofline_scene::Mark{roofline_scene::MarkRole::Ridge, roof.ridgeAt.x(),
                                             roof.ridgeAt.y(), kRidgeDotRadius};
    }
    in.joins = m_joinSet.drawnPolylines();
    return in;
}

void RooflineChart::placePointLabels()
{
    // Runs inside each replot, after the layout and before the drawing (afterLayout): what is placed
    // here is what that replot draws. Where nothing the texts depend on changed (a run arrived on a
    // spot already drawn, a repaint), they stay where they are.
    fitDefaultViewToWidth();
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

// Runs on one spot drawn again over the marker on top: its shape split into a slice a run's colour,
// so the runs under it ("8, 7 (same point)": 7's diamond lay under 8's) show too.
QPixmap sharedMarkPixmap(const roofline_scene::Layout::SharedPlace &place, qreal dpr)
{
    const bool diamond = place.shape == roofline_scene::SwatchShape::Diamond;
    const double size = diamond ? 9 : 8, side = size + 4;
    QPixmap pixmap(QSize(int(std::ceil(side * dpr)), int(std::ceil(side * dpr))));
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const QPointF c(side / 2, side / 2);
    const double r = size / 2;
    QPainterPath shape;
    if (diamond)
        shape.addPolygon(QPolygonF{c + QPointF(-r, 0), c + QPointF(0, -r), c + QPointF(r, 0),
                                   c + QPointF(0, r), c + QPointF(-r, 0)});
    else if (place.shape == roofline_scene::SwatchShape::Square)
        shape.addRect(QRectF(c - QPointF(r, r), QSizeF(size, size)));
    else
        shape.addEllipse(c, r, r);
    const qsizetype n = place.colors.size();
    for (qsizetype i = 0; i < n; ++i) {
        p.save();
        p.setClipRect(QRectF(c.x() - r + 2 * r * double(i) / double(n), 0, 2 * r / double(n), side));
        p.fillPath(shape, place.colors[i]);
        p.restore();
    }
    p.setPen(QPen(QColor(0x30, 0x30, 0x30), 1.2));
    p.drawPath(shape);
    return pixmap;
}

} // namespace

void RooflineChart::applyLabelLayout(const roofline_scene::Layout &layout)
{
    for (QCPItemPixmap *mark : std::as_const(m_sharedMarks))
        m_plot->removeItem(mark);
    m_sharedMarks.clear();
    for (const roofline_scene::Layout::SharedPlace &place : layout.shared) {
        const QPixmap pixmap = sharedMarkPixmap(place, devicePixelRatioF());
        auto *mark = new QCPItemPixmap(m_plot);
        mark->setPixmap(pixmap);
        mark->setScaled(false);
        mark->topLeft->setType(QCPItemPosition::ptAbsolute);
        const QSizeF side = pixmap.deviceIndependentSize();
        mark->topLeft->setPixelPosition(place.centre - QPointF(side.width() / 2, side.height() / 2));
        mark->setSelectable(false);
        m_sharedMarks << mark;
    }
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
        const qsizetype lineLeaders = text.visible ? text.lines.size() : 0;
        while (m_labelItems[i].lineLeaders.size() < lineLeaders)
            m_labelItems[i].lineLeaders << addLeaderItem();
        for (qsizetype k = 0; k < m_labelItems[i].lineLeaders.size(); ++k) {
            QCPItemLine *leader = m_labelItems[i].lineLeaders[k];
            leader->setVisible(k < lineLeaders);
            if (k < lineLeaders) {
                leader->start->setPixelPosition(text.lines[k].leader.p1());
                leader->end->setPixelPosition(text.lines[k].leader.p2());
            }
        }
    }
    if (layout.unnamedNote.visible && !m_unnamedNote) {
        m_unnamedNote = new QCPItemText(m_plot);
        m_unnamedNote->position->setType(QCPItemPosition::ptAbsolute); // in pixels: it names no point
        m_unnamedNote->setColor(chartHintColor());
        m_unnamedNote->setFont(QFont(font().family(), 8));
        m_unnamedNote->setTextAlignment(Qt::AlignLeft);
    }
    if (m_unnamedNote) {
        m_unnamedNote->setText(layout.unnamedNote.text);
        applyText(m_unnamedNote, nullptr, layout.unnamedNote);
    }
    m_layout.clear();
    for (const roofline_scene::Layout::Entry &e : layout.placed) {
        QList<LabelLayout::Line> lines;
        for (const roofline_scene::PlacedText::Line &line : e.lines) {
            QStringList names;
            for (const qsizetype n : line.names)
                names << m_labels[n].texts;
            lines << LabelLayout::Line{names, line.anchors, line.leader};
        }
        m_layout << LabelLayout{e.text, e.rect, e.anchors, e.leader, e.ridge, lines};
    }
}

QList<QLineF> RooflineChart::joinSegments() const
{
    return m_drawn.joins ? m_drawn.joins->pixelSegments() : QList<QLineF>();
}

} // namespace gemmscope
