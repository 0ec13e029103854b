#include "find_bar.h"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QToolButton>
#include <regex>

namespace gemmscope {

FindBar::FindBar(QWidget *parent)
    : QWidget(parent), m_find(new QLineEdit), m_replace(new QLineEdit),
      m_case(new QCheckBox(tr("Match &case"))), m_word(new QCheckBox(tr("&Whole word"))),
      m_regex(new QCheckBox(tr("Re&gex"))), m_replaceRow(new QWidget),
      m_replaceButton(new QPushButton(tr("&Replace"))),
      m_replaceAllButton(new QPushButton(tr("Replace &All"))), m_status(new QLabel)
{
    setObjectName(QStringLiteral("findBar"));
    m_find->setObjectName(QStringLiteral("findText"));
    m_find->setPlaceholderText(tr("Find"));
    m_find->setClearButtonEnabled(true);
    m_replace->setObjectName(QStringLiteral("replaceText"));
    m_replace->setPlaceholderText(tr("Replace with"));
    m_regex->setToolTip(
        tr("The find text is an ECMAScript regular expression (as C++'s std::regex reads it); "
           "\\1 in the replacement is the first group"));
    m_status->setObjectName(QStringLiteral("findStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setMinimumWidth(120);
    auto *next = new QPushButton(tr("&Next"));
    next->setToolTip(tr("Find the next match (F3)"));
    auto *previous = new QPushButton(tr("&Previous"));
    previous->setToolTip(tr("Find the previous match (Shift+F3)"));
    auto *closeButton = new QToolButton;
    closeButton->setText(QStringLiteral("✕"));
    closeButton->setAutoRaise(true);
    closeButton->setToolTip(tr("Close the find bar (Esc)"));

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setVerticalSpacing(2);
    layout->addWidget(m_find, 0, 0);
    auto *findButtons = new QHBoxLayout;
    for (QWidget *w : std::initializer_list<QWidget *>{next, previous, m_case, m_word, m_regex, m_status})
        findButtons->addWidget(w);
    findButtons->addStretch(1);
    findButtons->addWidget(closeButton);
    layout->addLayout(findButtons, 0, 1);
    auto *replaceLayout = new QHBoxLayout(m_replaceRow);
    replaceLayout->setContentsMargins(0, 0, 0, 0);
    replaceLayout->addWidget(m_replaceButton);
    replaceLayout->addWidget(m_replaceAllButton);
    replaceLayout->addStretch(1);
    layout->addWidget(m_replace, 1, 0);
    layout->addWidget(m_replaceRow, 1, 1);
    layout->setColumnStretch(0, 1);
    layout->setColumnStretch(1, 2);

    connect(next, &QPushButton::clicked, this, &FindBar::findNext);
    connect(previous, &QPushButton::clicked, this, &FindBar::findPrevious);
    connect(m_find, &QLineEdit::returnPressed, this, &FindBar::findNext);
    connect(m_replace, &QLineEdit::returnPressed, this, &FindBar::replaceOne);
    connect(m_replaceButton, &QPushButton::clicked, this, &FindBar::replaceOne);
    connect(m_replaceAllButton, &QPushButton::clicked, this, &FindBar::replaceAll);
    connect(closeButton, &QToolButton::clicked, this, &FindBar::close);
    connect(m_find, &QLineEdit::textEdited, this, [this] { say({}, false); });
    for (QLineEdit *edit : {m_find, m_replace})
        edit->installEventFilter(this);
    hide();
}

void FindBar::setEditor(QsciScintilla *editor)
{
    m_editor = editor;
    const bool writable = editor && !editor->isReadOnly();
    m_replaceButton->setEnabled(writable);
    m_replaceAllButton->setEnabled(writable);
    m_replace->setEnabled(writable);
    say({}, false);
}

void FindBar::addShortcutsTo(QWidget *area)
{
    const auto add = [area](const QKeySequence &keys, auto slot) {
        auto *shortcut = new QShortcut(keys, area);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        QObject::connect(shortcut, &QShortcut::activated, area, slot);
    };
    add(QKeySequence(tr("Ctrl+F")), [this] { openFind(); });
    add(QKeySequence(tr("Ctrl+H")), [this] { openReplace(); });
    add(QKeySequence(Qt::Key_F3), [this] { findNext(); });
    add(QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] { findPrevious(); });
}

void FindBar::openFind()
{
    if (m_editor && m_editor->hasSelectedText() && !m_editor->selectedText().contains(QLatin1Char('\n')))
        m_find->setText(m_editor->selectedText());
    m_replace->setVisible(false);
    m_replaceRow->setVisible(false);
    show();
    m_find->setFocus();
    m_find->selectAll();
}

void FindBar::openReplace()
{
    openFind();
    m_replace->setVisible(true);
    m_replaceRow->setVisible(true);
}

void FindBar::close()
{
    hide();
    if (m_editor)
        m_editor->setFocus();
}

void FindBar::setFindText(const QString &text)
{
    m_find->setText(text);
}

void FindBar::setReplaceText(const QString &text)
{
    m_replace->setText(text);
}

void FindBar::setMatchCase(bool on)
{
    m_case->setChecked(on);
}

void FindBar::setWholeWord(bool on)
{
    m_word->setChecked(on);
}

void FindBar::setRegularExpression(bool on)
{
    m_regex->setChecked(on);
}

QString FindBar::status() const
{
    return m_status->text();
}

void FindBar::say(const QString &text, bool problem)
{
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color: #b00020;") : QString());
    m_find->setStyleSheet(problem && !m_find->text().isEmpty() ? QStringLiteral("background: #fdecea;")
                                                               : QString());
}

bool FindBar::validPattern()
{
    if (!m_regex->isChecked())
        return true;
    // The editor searches with C++'s own regex engine: checked by it first, since an invalid
    // pattern must be said rather than searched.
    try {
        std::regex check(m_find->text().toStdString(), std::regex::ECMAScript);
        (void)check;
        return true;
    } catch (const std::regex_error &e) {
        say(tr("Not a valid regular expression: %1").arg(QString::fromLocal8Bit(e.what())), true);
        return false;
    }
}

bool FindBar::startSearch(bool forward, int line, int index, bool wrap)
{
    const bool regex = m_regex->isChecked();
    return m_editor->findFirst(m_find->text(), regex, m_case->isChecked(), m_word->isChecked(), wrap, forward,
                               line, index, true, false, regex);
}

bool FindBar::find(bool forward)
{
    if (!m_editor || m_find->text().isEmpty()) {
        say(m_editor ? tr("Type what to find.") : tr("No kernel is open."), true);
        return false;
    }
    if (!validPattern())
        return false;
    int line = -1, index = -1;
    if (!forward && m_editor->hasSelectedText()) {
        // Backwards from the start of the match shown now, not from the cursor at its end (which
        // would find the same match again).
        int lineTo = 0, indexTo = 0;
        m_editor->getSelection(&line, &index, &lineTo, &indexTo);
    }
    if (!startSearch(forward, line, index, true)) {
        say(tr("No match for \"%1\".").arg(m_find->text()), true);
        return false;
    }
    say({}, false);
    return true;
}

bool FindBar::findNext()
{
    return find(true);
}

bool FindBar::findPrevious()
{
    return find(false);
}

bool FindBar::replaceOne()
{
    if (!m_editor || m_editor->isReadOnly())
        return false;
    if (!m_editor->hasSelectedText() || !validPattern())
        return findNext(); // the first press shows the match it will replace
    // The selection is a match of the find text only if searching from its start finds it.
    int line = 0, index = 0, lineTo = 0, indexTo = 0;
    m_editor->getSelection(&line, &index, &lineTo, &indexTo);
    if (!startSearch(true, line, index, false)) {
        say(tr("No match for \"%1\".").arg(m_find->text()), true);
        return false;
    }
    int foundLine = 0, foundIndex = 0, l2 = 0, i2 = 0;
    m_editor->getSelection(&foundLine, &foundIndex, &l2, &i2);
    if (foundLine != line || foundIndex != index)
        return true; // the selection was not a match: the next match is now shown, nothing replaced
    m_editor->replace(m_replace->text());
    say(tr("1 replaced."), false);
    if (!m_editor->findNext())
        say(tr("1 replaced; no more matches."), false);
    return true;
}

int FindBar::replaceAll()
{
    if (!m_editor || m_editor->isReadOnly() || m_find->text().isEmpty() || !validPattern())
        return 0;
    if (!startSearch(true, 0, 0, false)) {
        say(tr("No match for \"%1\".").arg(m_find->text()), true);
        return 0;
    }
    // A pattern that matches nothing (x*) matches between every two characters: bounded by the
    // text's length, so it can never loop.
    const int limit = m_editor->length() + 1;
    int count = 0;
    m_editor->beginUndoAction();
    int lastEmptyMatch = -1;
    do {
        int line = 0, index = 0, lineTo = 0, indexTo = 0;
        m_editor->getSelection(&line, &index, &lineTo, &indexTo);
        const int start = m_editor->positionFromLineIndex(line, index);
        if (start == m_editor->positionFromLineIndex(lineTo, indexTo)) {
            if (start == lastEmptyMatch)
                break; // an empty match found again where the last one was replaced
            lastEmptyMatch = start;
        }
        m_editor->replace(m_replace->text());
        ++count;
    } while (count < limit && m_editor->findNext());
    m_editor->endUndoAction();
    say(tr("%n replaced.", nullptr, count), false);
    return count;
}

bool FindBar::eventFilter(QObject *watched, QEvent *event)
{
    // Esc closes the bar while its fields have the focus: taken before the window's own Esc
    // (Cancel) sees it as a shortcut.
    if (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier) {
            if (event->type() == QEvent::ShortcutOverride) {
                event->accept();
                return false;
            }
            close();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace gemmscope
