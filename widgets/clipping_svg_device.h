// An SVG paint device that clips. Qt 6.4's QSvgGenerator ignores the painter's clip (SVG Tiny has
// none), so a chart's bars that the plot clips at its axis were drawn over the axis labels in the
// SVG while the PNG and PDF cut them. This device applies the clip itself, geometrically, before
// the drawing reaches the generator: filled shapes are intersected with the clip, lines cut at its
// bounds, text and images outside it left out. Text stays text.
#pragma once

#include <QPaintDevice>
#include <memory>

class QSvgGenerator;

namespace gemmscope {

class ClippingPaintEngine;

class ClippingSvgDevice : public QPaintDevice {
public:
    explicit ClippingSvgDevice(QSvgGenerator *target);
    ~ClippingSvgDevice() override;

    QPaintEngine *paintEngine() const override;

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    QSvgGenerator *m_target;
    std::unique_ptr<ClippingPaintEngine> m_engine;
};

} // namespace gemmscope
