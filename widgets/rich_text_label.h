// A word-wrapped rich-text label that lays its text out once per width. A QLabel lays its whole
// document out twice (HTML tables included, every glyph shaped) each time a layout asks its height
// for a width — at that width, then back at the one it had — and a box layout asks several times,
// for the same few widths, each time the page is shown or the text changes; its size hints lay
// it out six to eight times more. The Counters workspace's two tables took 250-390 ms to show the
// first time on a 2-core machine. This label measures on a document of its own, once per width
// (the heights are kept until the text or the font changes), and paints as a QLabel does.
#pragma once

#include <QHash>
#include <QLabel>
#include <QTextDocument>

#include <memory>

namespace gemmscope {

class RichTextLabel : public QLabel {
    Q_OBJECT
public:
    explicit RichTextLabel(QWidget *parent = nullptr);

    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // How many times the text was laid out to measure it (for tests).
    int layoutsDone() const { return m_layoutsDone; }

protected:
    void changeEvent(QEvent *event) override;

private:
    // The measuring document for the current text and font, set up as QLabel sets up its own.
    QTextDocument &measured() const;
    // The document's size laid out `textWidth` wide (counted in layoutsDone).
    QSizeF layOut(qreal textWidth) const;
    // Whether this label is set up so that its own document measures what QLabel would (no margin,
    // indent or frame, wrapped at words, as the constructor leaves it); otherwise QLabel measures.
    bool measuresItself() const;

    mutable QString m_measuredText; // the text the document and the sizes below belong to
    mutable std::unique_ptr<QTextDocument> m_document;
    mutable QHash<int, int> m_heights;
    mutable QSize m_sizeHint, m_minimumSizeHint; // invalid until asked for this text
    mutable int m_layoutsDone = 0;
};

} // namespace gemmscope
