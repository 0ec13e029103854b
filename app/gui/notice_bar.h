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

    void show(const QString &text); // and keeps it until dismissed or cleared
    void clear();
    QString text() const;

private:
    QLabel *m_label;
    QToolButton *m_close;
};

} // namespace gemmscope
