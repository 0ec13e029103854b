// PresizedTabWidget (widgets/presized_tab_widget.h): a page shown for the first time with its tab
// widget is laid out once, at the size the tab widget gives it, not first at a stale size. The
// plain QTabWidget beside it shows what it saves.
#include "presized_tab_widget.h"

#include <QResizeEvent>
#include <QStackedWidget>
#include <QtTest>

using namespace gemmscope;

namespace {

// The sizes a widget is shown at and given afterwards.
class SizeLog : public QObject {
public:
    QList<QSize> sizes;
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Show)
            sizes << static_cast<QWidget *>(watched)->size();
        else if (event->type() == QEvent::Resize && static_cast<QWidget *>(watched)->isVisible())
            sizes << static_cast<QResizeEvent *>(event)->size();
        return false;
    }
};

// The sizes of a page of `tabs` at its first show: `tabs` is the second page of a stacked widget
// (as a workspace is), switched to after the window was shown and made larger.
QList<QSize> pageSizesAtFirstShow(QTabWidget *tabs, QWidget **pageOut)
{
    auto *window = new QStackedWidget;
    window->addWidget(new QWidget);
    window->addWidget(tabs);
    auto *page = new QWidget;
    tabs->setDocumentMode(true);
    tabs->addTab(page, QStringLiteral("Page"));
    tabs->addTab(new QWidget, QStringLiteral("Other"));
    window->resize(1000, 700);
    window->show();
    [&] { QVERIFY(QTest::qWaitForWindowExposed(window)); }();
    window->resize(1400, 900);
    QApplication::processEvents();
    SizeLog log;
    page->installEventFilter(&log);
    window->setCurrentIndex(1);
    QApplication::processEvents();
    page->removeEventFilter(&log);
    *pageOut = page;
    return log.sizes;
}

} // namespace

class TestPresizedTabWidget : public QObject {
    Q_OBJECT

private slots:
    void aPageIsShownOnceAtItsSize()
    {
        QWidget *page = nullptr;
        auto *tabs = new PresizedTabWidget;
        const QList<QSize> sizes = pageSizesAtFirstShow(tabs, &page);
        QVERIFY2(sizes == QList<QSize>{page->size()}, qPrintable(QDebug::toString(sizes)));
        // Where QTabWidget puts it: the contents rectangle under the tab bar.
        const QWidget *stack = tabs->findChild<QStackedWidget *>();
        QVERIFY(stack);
        QCOMPARE(page->size(), stack->size());
        QVERIFY(stack->geometry().top() >= tabs->tabBar()->geometry().bottom());
        QVERIFY(page->width() > 1300);
        delete tabs->window();
    }

    // What it saves: a plain QTabWidget shows the page at a size it does not keep.
    void aPlainTabWidgetShowsItTwice()
    {
        QWidget *page = nullptr;
        auto *tabs = new QTabWidget;
        const QList<QSize> sizes = pageSizesAtFirstShow(tabs, &page);
        QVERIFY2(sizes.size() >= 2 && sizes.first() != page->size(), qPrintable(QDebug::toString(sizes)));
        QCOMPARE(sizes.last(), page->size());
        delete tabs->window();
    }
};

QTEST_MAIN(TestPresizedTabWidget)
#include "tst_presized_tab_widget.moc"
