// The kernel editor (widgets/kernel_editor.h) and its find bar (widgets/find_bar.h), offscreen:
// problems marked at their lines and cleared by the next call, a read-only header, find and
// replace (case, whole word, regex, replace all as one undo step) and "no match" said in the bar.
#include "find_bar.h"
#include "kernel_editor.h"

#include <QLabel>
#include <QTest>
#include <QVBoxLayout>

using namespace gemmscope;
using Severity = KernelProblem::Severity;

namespace {

const QString kSource = QStringLiteral("#include \"common.cuh\"\n"        // 1
                                       "__global__ void k(float *C)\n"    // 2
                                       "{\n"                              // 3
                                       "    __shared__ float tile[32];\n" // 4
                                       "    int x = threadIdx.x;\n"       // 5
                                       "    C[x] = tile[x] + Tile;\n"     // 6
                                       "}\n");                            // 7

bool hasMarker(const KernelEditor &editor, int line, int marker)
{
    return (editor.markersAtLine(line - 1) & (1u << marker)) != 0;
}

} // namespace

class TestKernelEditor : public QObject {
    Q_OBJECT
private slots:
    void problemsAreMarkedAtTheirLinesAndCleared()
    {
        KernelEditor editor;
        editor.setText(kSource);
        editor.setProblems(
            {{.file = QStringLiteral("k.cuh"),
              .line = 6,
              .message = QStringLiteral("identifier \"Tile\" is undefined"),
              .severity = Severity::Error},
             {.file = QStringLiteral("k.cuh"),
              .line = 5,
              .message = QStringLiteral("<b>not bold</b>"),
              .severity = Severity::Warning},
             {.file = {}, .line = 0, .message = QStringLiteral("ptxas: whole program")},
             {.file = QStringLiteral("k.cuh"), .line = 999, .message = QStringLiteral("past the end")}});
        QVERIFY(hasMarker(editor, 6, KernelEditor::kErrorMarker));
        QVERIFY(!hasMarker(editor, 6, KernelEditor::kWarningMarker));
        QVERIFY(hasMarker(editor, 5, KernelEditor::kWarningMarker));
        QVERIFY(!hasMarker(editor, 4, KernelEditor::kErrorMarker) &&
                !hasMarker(editor, 4, KernelEditor::kWarningMarker));
        QCOMPARE(editor.annotation(5), QStringLiteral("identifier \"Tile\" is undefined"));
        QCOMPARE(editor.annotation(4), QStringLiteral("<b>not bold</b>"));
        QCOMPARE(editor.problemTextAt(6), QStringLiteral("error: identifier \"Tile\" is undefined"));
        QCOMPARE(editor.problemTextAt(5), QStringLiteral("warning: <b>not bold</b>"));
        QVERIFY(editor.problemTextAt(3).isEmpty());
        // A line past the end is marked on the last line; the whole program's problem on none.
        const int last = editor.lines();
        QVERIFY(editor.problemTextAt(last).contains(QStringLiteral("past the end")));
        QVERIFY(hasMarker(editor, last, KernelEditor::kErrorMarker));

        // The next call replaces the marks.
        editor.setProblems(
            {{.file = {}, .line = 2, .message = QStringLiteral("moved"), .severity = Severity::Error}});
        QVERIFY(!hasMarker(editor, 6, KernelEditor::kErrorMarker));
        QVERIFY(!hasMarker(editor, 5, KernelEditor::kWarningMarker));
        QVERIFY(editor.annotation(5).isEmpty());
        QVERIFY(hasMarker(editor, 2, KernelEditor::kErrorMarker));
        editor.setProblems({});
        QVERIFY(!hasMarker(editor, 2, KernelEditor::kErrorMarker));
        QVERIFY(editor.annotation(1).isEmpty());
        QVERIFY(editor.problemTextAt(2).isEmpty());
    }

    void undoAndRedo()
    {
        KernelEditor editor;
        editor.setText(QStringLiteral("abc"));
        editor.setCursorPosition(0, 3);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QTest::keyClicks(&editor, QStringLiteral("def"));
        QCOMPARE(editor.text(), QStringLiteral("abcdef"));
        editor.undo();
        QCOMPARE(editor.text(), QStringLiteral("abc"));
        editor.redo();
        QCOMPARE(editor.text(), QStringLiteral("abcdef"));
    }

    void aHeaderIsReadOnly()
    {
        KernelEditor editor;
        editor.setText(kSource);
        editor.setHeaderReadOnly(true);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setCursorPosition(2, 0);
        QTest::keyClicks(&editor, QStringLiteral("typed"));
        QTest::keyClick(&editor, Qt::Key_Delete);
        QCOMPARE(editor.text(), kSource);
        editor.setHeaderReadOnly(false);
        QTest::keyClicks(&editor, QStringLiteral("typed"));
        QVERIFY(editor.text().contains(QStringLiteral("typed")));
    }

    void findMatchCaseAndWholeWord()
    {
        KernelEditor editor;
        editor.setText(kSource);
        FindBar bar;
        bar.setEditor(&editor);
        bar.setFindText(QStringLiteral("tile"));
        QVERIFY(bar.findNext());
        QCOMPARE(editor.selectedText(), QStringLiteral("tile"));
        int line = 0, index = 0;
        editor.getCursorPosition(&line, &index);
        QCOMPARE(line, 3);
        bar.setMatchCase(true);
        bar.setFindText(QStringLiteral("Tile"));
        QVERIFY(bar.findNext());
        editor.getCursorPosition(&line, &index);
        QCOMPARE(line, 5);
        QCOMPARE(editor.selectedText(), QStringLiteral("Tile"));
        bar.setMatchCase(false);
        bar.setWholeWord(true);
        bar.setFindText(QStringLiteral("til"));
        QVERIFY(!bar.findNext());
        QVERIFY2(bar.status().contains(QStringLiteral("No match")), qPrintable(bar.status()));
        QVERIFY(
            bar.findChild<QLabel *>(QStringLiteral("findStatus"))->text().contains(QStringLiteral("til")));
    }

    void findPreviousGoesBack()
    {
        KernelEditor editor;
        editor.setText(QStringLiteral("x1 x2 x3"));
        FindBar bar;
        bar.setEditor(&editor);
        bar.setFindText(QStringLiteral("x"));
        QVERIFY(bar.findNext());
        QVERIFY(bar.findNext());
        int line = 0, from = 0, lineTo = 0, to = 0;
        editor.getSelection(&line, &from, &lineTo, &to);
        QCOMPARE(from, 3);
        QVERIFY(bar.findPrevious());
        editor.getSelection(&line, &from, &lineTo, &to);
        QCOMPARE(from, 0);
    }

    void regexReplaceAllIsOneUndoStep()
    {
        KernelEditor editor;
        editor.setText(QStringLiteral("tileA[i] tileB[j] tile[k]"));
        FindBar bar;
        bar.setEditor(&editor);
        bar.setRegularExpression(true);
        bar.setFindText(QStringLiteral("tile[AB]"));
        bar.setReplaceText(QStringLiteral("buf"));
        QCOMPARE(bar.replaceAll(), 2);
        QCOMPARE(editor.text(), QStringLiteral("buf[i] buf[j] tile[k]"));
        QVERIFY(bar.status().contains(QStringLiteral("2 replaced")));
        editor.undo();
        QCOMPARE(editor.text(), QStringLiteral("tileA[i] tileB[j] tile[k]"));

        // A pattern that matches the empty text ends.
        bar.setFindText(QStringLiteral("z*"));
        bar.setReplaceText(QString());
        const QString before = editor.text();
        QVERIFY(bar.replaceAll() <= editor.length() + 1);
        QCOMPARE(editor.text(), before);
        bar.setReplaceText(QStringLiteral("-"));
        editor.setText(QStringLiteral("ab"));
        QVERIFY(bar.replaceAll() <= 3); // ends; where QScintilla resumes after an empty match is its own
        QVERIFY(editor.text().startsWith(QLatin1Char('-')));
        editor.setText(QStringLiteral("tileA[i] tileB[j] tile[k]"));

        // An invalid pattern is said, not searched.
        bar.setFindText(QStringLiteral("tile[("));
        QVERIFY(!bar.findNext());
        QVERIFY2(bar.status().contains(QStringLiteral("regular expression")), qPrintable(bar.status()));
        QCOMPARE(bar.replaceAll(), 0);

        bar.setFindText(QStringLiteral("nothing\\d+"));
        QCOMPARE(bar.replaceAll(), 0);
        QVERIFY(bar.status().contains(QStringLiteral("No match")));
    }

    void replaceOneThenTheNext()
    {
        KernelEditor editor;
        editor.setText(QStringLiteral("a a a"));
        FindBar bar;
        bar.setEditor(&editor);
        bar.setFindText(QStringLiteral("a"));
        bar.setReplaceText(QStringLiteral("b"));
        QVERIFY(bar.replaceOne()); // shows the first match
        QCOMPARE(editor.text(), QStringLiteral("a a a"));
        QVERIFY(bar.replaceOne());
        QCOMPARE(editor.text(), QStringLiteral("b a a"));
        QVERIFY(bar.replaceOne());
        QCOMPARE(editor.text(), QStringLiteral("b b a"));
    }

    void replaceIsOffInAHeader()
    {
        KernelEditor editor;
        editor.setText(QStringLiteral("a a"));
        editor.setHeaderReadOnly(true);
        FindBar bar;
        bar.setEditor(&editor);
        bar.setFindText(QStringLiteral("a"));
        bar.setReplaceText(QStringLiteral("b"));
        QCOMPARE(bar.replaceAll(), 0);
        QCOMPARE(editor.text(), QStringLiteral("a a"));
        QVERIFY(bar.findNext()); // finding still works
    }

    // Ctrl+F opens the bar, F3 finds, Esc closes it and gives the editor the focus back.
    void keys()
    {
        QWidget area;
        auto *layout = new QVBoxLayout(&area);
        auto *editor = new KernelEditor;
        auto *bar = new FindBar;
        layout->addWidget(editor);
        layout->addWidget(bar);
        bar->setEditor(editor);
        bar->addShortcutsTo(&area);
        editor->setText(kSource);
        area.show();
        QVERIFY(QTest::qWaitForWindowActive(&area));
        editor->setFocus();
        QVERIFY(bar->isHidden());
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier);
        QVERIFY(bar->isVisible());
        QVERIFY(!bar->findChild<QWidget *>(QStringLiteral("replaceText"))->isVisible());
        QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("threadIdx"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_F3);
        QCOMPARE(editor->selectedText(), QStringLiteral("threadIdx"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QVERIFY(bar->isHidden());
        QTest::keyClick(editor, Qt::Key_H, Qt::ControlModifier);
        QVERIFY(bar->isVisible());
        QVERIFY(bar->findChild<QWidget *>(QStringLiteral("replaceText"))->isVisible());
    }
};

QTEST_MAIN(TestKernelEditor)
#include "tst_kernel_editor.moc"
