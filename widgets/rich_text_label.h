// A word-wrapped rich-text label that lays its text out once per width. A QLabel lays its whole
// document out again (HTML tables included, every glyph shaped) each time a layout asks its
// height for a width, and a box layout asks several times, for the same few widths, each time the
// page is shown or the text changes: the Counters workspace's two tables took 250-390 ms to show
// the first time on a 2-core machine. The heights are kept until the text or the font changes.
#pragma once

#include <QHash>
#include <QLabel>

namespace gemmscope {

class RichTextLabel : public QLabel {
    Q_OBJECT
public:
    explicit RichTextLabel(QWidget *parent = nullptr);

    int heightForWidth(int width) const override;
    // How many heights were laid out rather than remembered (for tests).
    int layoutsDone() const { return m_layoutsDone; }

protected:
    void changeEvent(QEvent *event) override;

private:
    mutable QString m_measuredText; // the text the heights below belong to
    mutable QHash<int, int> m_heights;
    mutable int m_layoutsDone = 0;
};

} // namespace gemmscope
