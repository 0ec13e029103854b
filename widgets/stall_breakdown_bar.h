// "Where the time goes" over a whole kernel: one bar split by PC-sampling stall reason, each
// segment as wide as its share of the samples, and a legend naming every reason in words
// (app/core/stall_reasons.h) with its share. Reasons under half a percent share one "other"
// segment. Without a profile it shows a sentence instead (why there is none, or a part's error).
#pragma once

#include "profile_analysis.h"

#include <QWidget>

namespace gemmscope {

class StallBreakdownBar : public QWidget {
    Q_OBJECT

public:
    explicit StallBreakdownBar(QWidget *parent = nullptr);

    // `title` heads the bar ("Where the time goes: 4,915,099 samples").
    void setBreakdown(const StallBreakdown &breakdown, const QString &title);
    void setMessage(const QString &sentence); // no bar: the sentence alone (plain text)

    struct Segment {
        QString key;      // the reason, or empty for the "other" segment
        QString legend;   // "shared queue 46 %": the name from stall_reasons.h
        double share = 0; // of the samples
        unsigned color = 0;
    };
    const QList<Segment> &segments() const { return m_segments; }
    QString title() const { return m_title; }
    QString message() const { return m_message; }
    QString tooltipAt(const QPoint &pos) const; // the segment or legend entry under pos

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Layout {
        QRectF title, bar;
        QList<QRectF> segmentRects, legendRects;
        int height = 0;
    };
    Layout layoutFor(int width) const;
    void fitHeight();

    QString m_title, m_message;
    QList<Segment> m_segments;
    QList<QString> m_tooltips;
};

} // namespace gemmscope
