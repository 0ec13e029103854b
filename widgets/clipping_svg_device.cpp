#include "clipping_svg_device.h"

#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QSvgGenerator>
#include <QTextItem>
#include <optional>

namespace gemmscope {

namespace {

// The part of segment a-b inside `box` (Liang-Barsky), or nothing.
std::optional<QLineF> clipSegment(QPointF a, QPointF b, const QRectF &box)
{
    double t0 = 0, t1 = 1;
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - box.left(), box.right() - a.x(), a.y() - box.top(), box.bottom() - a.y()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return std::nullopt;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return std::nullopt;
    }
    return QLineF(a + t0 * (b - a), a + t1 * (b - a));
}

} // namespace

// Forwards every call to a painter on the SVG generator, with the state the chart set (pen,
// brush, font, transform), and clips the geometry first. The clip is kept in device coordinates
// and mapped into the current logical ones for each call.
class ClippingPaintEngine : public QPaintEngine {
public:
    explicit ClippingPaintEngine(QSvgGenerator *target)
        : QPaintEngine(QPaintEngine::AllFeatures), m_target(target)
    {
    }

    bool begin(QPaintDevice *) override
    {
        m_clip.reset();
        return m_painter.begin(m_target);
    }
    bool end() override { return m_painter.end(); }
    Type type() const override { return QPaintEngine::User; }

    void updateState(const QPaintEngineState &state) override
    {
        const DirtyFlags dirty = state.state();
        if (dirty & DirtyPen)
            m_painter.setPen(state.pen());
        if (dirty & DirtyBrush)
            m_painter.setBrush(state.brush());
        if (dirty & DirtyBrushOrigin)
            m_painter.setBrushOrigin(state.brushOrigin());
        if (dirty & DirtyFont)
            m_painter.setFont(state.font());
        if (dirty & DirtyBackground)
            m_painter.setBackground(state.backgroundBrush());
        if (dirty & DirtyBackgroundMode)
            m_painter.setBackgroundMode(state.backgroundMode());
        if (dirty & DirtyOpacity)
            m_painter.setOpacity(state.opacity());
        if (dirty & DirtyHints)
            m_painter.setRenderHints(state.renderHints());
        if (dirty & DirtyTransform)
            m_painter.setTransform(state.transform());
        if (dirty & (DirtyClipPath | DirtyClipRegion | DirtyClipEnabled | DirtyTransform)) {
            // The painter knows the clip whichever way it was set (rect, region, path, intersected).
            const QPainter *source = painter();
            if (source && source->hasClipping())
                m_clip = source->combinedTransform().map(source->clipPath());
            else
                m_clip.reset();
        }
    }

    void drawPath(const QPainterPath &path) override
    {
        if (!m_clip) {
            m_painter.drawPath(path);
            return;
        }
        const QPainterPath clip = logicalClip();
        if (m_painter.brush().style() == Qt::NoBrush) {
            // A stroke: its segments cut at the clip's bounds (an area intersection would close it).
            for (const QPolygonF &line : path.toSubpathPolygons())
                drawClippedPolyline(line.constData(), int(line.size()), clip.boundingRect());
            return;
        }
        if (!path.intersects(clip))
            return;
        m_painter.drawPath(clip.contains(path) ? path : path.intersected(clip));
    }

    void drawPolygon(const QPointF *points, int count, PolygonDrawMode mode) override
    {
        if (mode == PolylineMode) {
            if (m_clip)
                drawClippedPolyline(points, count, logicalClip().boundingRect());
            else
                m_painter.drawPolyline(points, count);
            return;
        }
        QPainterPath path;
        path.addPolygon(QPolygonF(QList<QPointF>(points, points + count)));
        path.closeSubpath();
        path.setFillRule(mode == WindingMode ? Qt::WindingFill : Qt::OddEvenFill);
        drawPath(path);
    }

    void drawTextItem(const QPointF &p, const QTextItem &item) override
    {
        if (m_clip) {
            const QFontMetricsF metrics(item.font());
            const QRectF box(p.x(), p.y() - metrics.ascent(), metrics.horizontalAdvance(item.text()),
                             metrics.height());
            if (!logicalClip().intersects(box))
                return; // a label scrolled out of the plot, as on screen
        }
        m_painter.save();
        m_painter.setFont(item.font());
        m_painter.drawText(p, item.text());
        m_painter.restore();
    }

    void drawPixmap(const QRectF &r, const QPixmap &pixmap, const QRectF &source) override
    {
        if (!m_clip || logicalClip().intersects(r))
            m_painter.drawPixmap(r, pixmap, source);
    }

    void drawImage(const QRectF &r, const QImage &image, const QRectF &source,
                   Qt::ImageConversionFlags flags) override
    {
        if (!m_clip || logicalClip().intersects(r))
            m_painter.drawImage(r, image, source, flags);
    }

private:
    QPainterPath logicalClip() const
    {
        return m_painter.transform().isIdentity() ? *m_clip : m_painter.transform().inverted().map(*m_clip);
    }

    void drawClippedPolyline(const QPointF *points, int count, const QRectF &box)
    {
        QPolygonF run; // consecutive inside pieces stay one polyline (dashes keep their rhythm)
        for (int i = 0; i + 1 < count; ++i) {
            const std::optional<QLineF> piece = clipSegment(points[i], points[i + 1], box);
            if (!piece) {
                if (run.size() > 1)
                    m_painter.drawPolyline(run);
                run.clear();
                continue;
            }
            if (run.isEmpty() || run.last() != piece->p1()) {
                if (run.size() > 1)
                    m_painter.drawPolyline(run);
                run = {piece->p1()};
            }
            run << piece->p2();
        }
        if (run.size() > 1)
            m_painter.drawPolyline(run);
    }

    QSvgGenerator *m_target;
    QPainter m_painter;
    std::optional<QPainterPath> m_clip; // device coordinates; none: draw everything
};

ClippingSvgDevice::ClippingSvgDevice(QSvgGenerator *target)
    : m_target(target), m_engine(std::make_unique<ClippingPaintEngine>(target))
{
}

ClippingSvgDevice::~ClippingSvgDevice() = default;

QPaintEngine *ClippingSvgDevice::paintEngine() const
{
    return m_engine.get();
}

int ClippingSvgDevice::metric(PaintDeviceMetric metric) const
{
    // The generator's own measures, so that fonts and sizes come out as they did without clipping.
    switch (metric) {
    case PdmWidth:
        return m_target->width();
    case PdmHeight:
        return m_target->height();
    case PdmWidthMM:
        return m_target->widthMM();
    case PdmHeightMM:
        return m_target->heightMM();
    case PdmNumColors:
        return m_target->colorCount();
    case PdmDepth:
        return m_target->depth();
    case PdmDpiX:
        return m_target->logicalDpiX();
    case PdmDpiY:
        return m_target->logicalDpiY();
    case PdmPhysicalDpiX:
        return m_target->physicalDpiX();
    case PdmPhysicalDpiY:
        return m_target->physicalDpiY();
    case PdmDevicePixelRatio:
        return 1;
    case PdmDevicePixelRatioScaled:
        return int(devicePixelRatioFScale());
    }
    return QPaintDevice::metric(metric);
}

} // namespace gemmscope
