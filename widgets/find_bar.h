// Find and replace under the kernel editor, as code editors have it: Ctrl+F opens it on the find
// field, Ctrl+H with the replace row too, F3 / Shift+F3 find the next / previous match, Esc closes
// it. Match case, whole word and regular expression (ECMAScript, as C++'s std::regex reads it; an
// invalid one is said, never searched); Replace changes the selected match and finds the next one,
// Replace All changes every match as one undo step. "No match" is said in the bar itself.
#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QsciScintilla;

namespace gemmscope {

class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(QWidget *parent = nullptr);

    // The editor searched now (the current tab's); nullptr: none.
    void setEditor(QsciScintilla *editor);
    QsciScintilla *editor() const { return m_editor; }
    // Ctrl+F, Ctrl+H, F3 and Shift+F3 while the focus is anywhere inside `area` (the editor and
    // this bar): the shortcuts do not reach the rest of the window.
    void addShortcutsTo(QWidget *area);

    void openFind();    // Ctrl+F: the find field, holding the editor's selected word if any
    void openReplace(); // Ctrl+H
    void close();

    void setFindText(const QString &text);
    void setReplaceText(const QString &text);
    void setMatchCase(bool on);
    void setWholeWord(bool on);
    void setRegularExpression(bool on);

    bool findNext();     // F3
    bool findPrevious(); // Shift+F3
    bool replaceOne();   // the selected match, then the next
    int replaceAll();    // how many were replaced

    QString status() const; // what the bar says now: "No match for …", "3 replaced", an invalid regex

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool find(bool forward);
    bool startSearch(bool forward, int line, int index, bool wrap);
    bool validPattern();
    void say(const QString &text, bool problem);

    QPointer<QsciScintilla> m_editor;
    QLineEdit *m_find;
    QLineEdit *m_replace;
    QCheckBox *m_case;
    QCheckBox *m_word;
    QCheckBox *m_regex;
    QWidget *m_replaceRow;
    QPushButton *m_replaceButton;
    QPushButton *m_replaceAllButton;
    QLabel *m_status;
};

} // namespace gemmscope
