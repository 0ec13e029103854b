// PageScrollArea (widgets/page_scroll_area.h): a page whose text changed while it was hidden, and
// whose layout settles after it shows, gets its full height and a scroll range. (The Counters page
// where a plain QScrollArea kept the old height is checked in tst_workspaces.)
#include "page_scroll_area.h"
#include "presized_tab_widget.h"

#include <QLabel>
#include <QScrollBar>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QtTest>

using namespace gemmscope;

namespace {

struct Page {
    QWidget *widget;
    QLabel *shortText;
    QLabel *longText;
};

// A page of a text and a block of its own with a wrapped text, hidden until there is something to
// say (as the Counters page's against-cuBLAS block is until a run is chosen).
Page makePage()
{
    Page p{new QWidget, new QLabel(QStringLiteral("A short text.")), new QLabel};
    auto *block = new QWidget;
    auto *blockColumn = new QVBoxLayout(block);
    p.longText->setWordWrap(true);
    p.longText->hide();
    blockColumn->addWidget(p.longText);
    auto *column = new QVBoxLayout(p.widget);
    column->addWidget(p.shortText);
    column->addWidget(block);
    column->addStretch(1);
    return p;
}

// As a workspace page is: `area` the page of a tab widget (PresizedTabWidget, which sizes it
// while hidden) on the second page of a stacked window. The window shows its first page, grows,
// the text changes (60 lines) while the tab is hidden, then the tab is shown: the page's height and
// the vertical scroll bar's range afterwards.
std::pair<int, int> heightAndRangeAfterAHiddenChange(QScrollArea *area, const Page &page)
{
    auto *window = new QStackedWidget;
    auto *tabs = new PresizedTabWidget;
    window->addWidget(new QWidget);
    window->addWidget(tabs);
    tabs->addTab(area, QStringLiteral("Page"));
    window->resize(500, 300);
    window->show();
    [&] { QVERIFY(QTest::qWaitForWindowExposed(window)); }();
    window->resize(600, 320);
    QStringList lines;
    for (int i = 0; i < 60; ++i)
        lines << QStringLiteral("Line %1 of what the chosen run measured.").arg(i);
    page.longText->setText(lines.join(QLatin1Char('\n')));
    page.longText->show();
    window->setCurrentIndex(1);
    QApplication::processEvents();
    QApplication::processEvents();
    return {page.widget->height(), area->verticalScrollBar()->maximum()};
}

} // namespace

class TestPageScrollArea : public QObject {
    Q_OBJECT

private slots:
    void aPageThatGrewWhileHiddenIsWholeAndScrolls()
    {
        const Page page = makePage();
        auto *area = new PageScrollArea(page.widget);
        const auto [height, range] = heightAndRangeAfterAHiddenChange(area, page);
        const int needed = page.widget->heightForWidth(area->viewport()->width());
        QVERIFY2(needed > 600, qPrintable(QString::number(needed)));
        QCOMPARE(height, needed);
        QCOMPARE(range, needed - area->viewport()->height());
        QVERIFY(area->verticalScrollBar()->isVisible());
        delete area->window();
    }
};

QTEST_MAIN(TestPageScrollArea)
#include "tst_page_scroll_area.moc"
