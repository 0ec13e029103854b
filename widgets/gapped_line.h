// A straight line that leaves a gap wherever it would cross a text: the runtime chart's dashed
// cuBLAS reference ran through the values of the bars shorter than it ("0.5|08 ms", "0.4|00 ms" at
// 1280x800). The text stays readable and the line reads on through the gaps; the bars, whiskers and
// grid under the texts are drawn as before (an opaque backing behind a label would have covered
// the whisker caps its padding keeps clear of).
#pragma once

#include <QLineF>
#include <QList>
#include <QRectF>
#include <functional>
#include <qcustomplot.h>

namespace gemmscope {

// What of `line` lies outside every rect of `gaps`, as segments in the line's direction (the whole
// line where it crosses none; none where one covers it).
QList<QLineF> segmentsClearOf(const QLineF &line, const QList<QRectF> &gaps);

class GappedStraightLine : public QCPItemStraightLine {
    Q_OBJECT
public:
    using Gaps = std::function<QList<QRectF>(const QLineF &line)>;
    explicit GappedStraightLine(QCustomPlot *plot);
    // The rects (in the plot's pixels) the line leaves out, asked at every draw with the line as it
    // is drawn (those far from it need not be measured): the texts as they stand once the frame is
    // laid out.
    void setGaps(Gaps gaps) { m_gaps = std::move(gaps); }
    // The pieces the line draws, in pixels, as of the last layout.
    QList<QLineF> drawnSegments() const;

protected:
    void draw(QCPPainter *painter) override;

private:
    Gaps m_gaps;
};

} // namespace gemmscope
