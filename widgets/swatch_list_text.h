// A text item whose lines each name a marker of the plot: a small copy of that marker (its shape,
// its colour) drawn before the line, so that a list of runs in a crowd is matched to the markers
// by colour, not by hovering (a new user could not tell which diamond a list line named).
#pragma once

#include <QColor>
#include <QList>
#include <qcustomplot.h>

namespace gemmscope {

class SwatchListText : public QCPItemText {
public:
    // The marker's shapes: a run at its measured intensity, a run at the model's, a published
    // worklog row (a white square in the worklog's colour).
    enum class Shape { Diamond, Disc, Square };
    struct Swatch {
        QColor color;
        Shape shape = Shape::Diamond;
    };
    // Room at the left of every line for its swatch (px); add it to the item's left padding.
    static constexpr int kSwatchRoom = 9;

    using QCPItemText::QCPItemText;

    // One per line of the text; empty: a plain text. The item's left padding must leave
    // kSwatchRoom for them.
    void setSwatches(const QList<Swatch> &swatches) { m_swatches = swatches; }
    const QList<Swatch> &swatches() const { return m_swatches; }

protected:
    void draw(QCPPainter *painter) override;

private:
    QList<Swatch> m_swatches;
};

} // namespace gemmscope
