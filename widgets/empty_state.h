// One look for a pane that has nothing to show: the
// sentence at the top left in the pane's own font, word-wrapped and plain (it may quote a file or
// a runner's message), and, where something can be done about it here, buttons under it that do
// it ("Open the default session"; "New from Stage…", "New Blank Kernel", "Open Kernel…"): the next
// step as something to press, not only a sentence to follow. The Counters tabs, the SASS tab and the Sweep
// pages use it, so an empty pane reads the same everywhere.
#pragma once

#include <QWidget>

class QLabel;
class QHBoxLayout;
class QPushButton;

namespace gemmscope {

class EmptyState : public QWidget {
    Q_OBJECT
public:
    explicit EmptyState(QWidget *parent = nullptr);

    void setText(const QString &sentence);
    QString text() const;
    // The button under the sentence (empty: none) and its tooltip.
    void setOffer(const QString &buttonText, const QString &toolTip = {});
    QString offer() const; // the button's text while it is shown, else empty
    // Another button after the offer (and those added before), shown with it; its clicked signal
    // is the caller's to connect.
    QPushButton *addAction(const QString &buttonText, const QString &toolTip = {});
    QPushButton *offerButton() const { return m_button; }
    QLabel *textLabel() const { return m_text; }

signals:
    void offerTaken();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void fitText();

    QLabel *m_text;
    QPushButton *m_button;
    QHBoxLayout *m_buttonRow;
};

// The line over a pane that shows something other than the user's own data (the embedded
// example's profiles beside a session that has none): plain text on a tinted band, so that it is
// never taken for the user's measurement. Hidden while its text is empty.
QLabel *makeReferenceNote(QWidget *parent = nullptr);
void setReferenceNoteText(QLabel *note, const QString &sentence);

} // namespace gemmscope
