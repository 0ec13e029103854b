// One look for a pane that has nothing to show: the
// sentence at the top left in the pane's own font, word-wrapped and plain (it may quote a file or
// a runner's message), and, where something can be done about it here, buttons under it that do
// it ("Open the default session"; "New from Stage…", "New Blank Kernel", "Open Kernel…"): the next
// step as something to press, not only a sentence to follow. The Counters tabs, the SASS tab and the Sweep
// pages use it, so an empty pane reads the same everywhere. A pane that is a whole workspace's is a
// start page instead (setHeading, addStep): a heading, and each way to start beside what it does.
#pragma once

#include <QHash>
#include <QKeySequence>
#include <QWidget>

class QGridLayout;
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

    // A start page rather than a note: a pane that is a whole workspace's (the Editor with no kernel,
    // the Sweep with no sweep) had four lines at its top left and the rest blank. A heading over the
    // sentence, and the ways to start as rows of a button and what it does (with its shortcut); the
    // block sits in the pane's middle third, not its corner.
    void setHeading(const QString &heading);
    QString heading() const;
    // A row: the button, then `what` and, if any, "(keys)". Its clicked signal is the caller's.
    QPushButton *addStep(const QString &buttonText, const QString &what, const QKeySequence &keys = {});
    // The same for a button made before (the offer's: setOffer still shows or hides its row).
    void addStep(QPushButton *button, const QString &what, const QKeySequence &keys = {});
    void setStepShown(QPushButton *step, bool shown); // the button and its sentence
    QString stepText(QPushButton *step) const;        // the sentence beside a step's button
    // A paragraph under the steps (what happens next); empty: none.
    void setFootnote(const QString &sentence);
    QPushButton *offerButton() const { return m_button; }
    QLabel *textLabel() const { return m_text; }

signals:
    void offerTaken();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void fitText();
    void centre(); // from the first heading or step on

    QLabel *m_text;
    QPushButton *m_button;
    QHBoxLayout *m_buttonRow;
    QLabel *m_heading = nullptr;
    QGridLayout *m_steps = nullptr;
    QLabel *m_footnote = nullptr;
    QHash<QPushButton *, QLabel *> m_stepTexts;
    bool m_centred = false;
};

// The line over a pane that shows something other than the user's own data (the embedded
// example's profiles beside a session that has none): plain text on a tinted band, so that it is
// never taken for the user's measurement. Hidden while its text is empty.
QLabel *makeReferenceNote(QWidget *parent = nullptr);
void setReferenceNoteText(QLabel *note, const QString &sentence);

} // namespace gemmscope
