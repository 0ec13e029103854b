// A one-line notice across the top of the window, as browsers and IDEs show them: what a session
// that just opened is about, or that the autosave cannot be written and the runs are kept nowhere.
// The text is plain (a session's description comes from a file); the close button hides it until
// the next notice.
#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace gemmscope {

class NoticeBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Information, Warning };
    explicit NoticeBar(Kind kind, QWidget *parent = nullptr);

    // Shows `text` until dismissed or cleared. A long one shows its first sentence and a "Show all"
    // button: a session's description can run to a paragraph, and the notice must not push the
    // workspace down by five lines.
    void show(const QString &text);
    void clear();
    QString text() const; // the whole text while shown, empty when hidden

private:
    void updateShown();

    QLabel *m_label;
    QToolButton *m_more;
    QToolButton *m_close;
    QString m_text;
    bool m_expanded = false;
};

} // namespace gemmscope
