// A plain-text label that, while it does not wrap, keeps to one line: it cuts its text at the end
// ("…") to the width its row gives it, and its tooltip shows the whole text where it is cut. The
// Sweep workspace's run bar shows its status line and why Start is off this way: word-wrapped, a
// long reason took four lines of a bar that should take two. Word-wrapped (setWordWrap(true)), it
// is a QLabel. text() is always the whole text.
#pragma once

#include <QLabel>

namespace gemmscope {

class ElidingLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidingLabel(QWidget *parent = nullptr);

    // Whether the text is cut at the label's present width (never while it wraps).
    bool isElided() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    QString oneLine() const; // the text with its line breaks as spaces
    QString shownText() const;
};

} // namespace gemmscope
