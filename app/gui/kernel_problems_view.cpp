#include "kernel_problems_view.h"

#include "plain_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace gemmscope {

namespace {
enum Column { SeverityColumn, FileColumn, LineColumn, MessageColumn };
constexpr int kLineRole = Qt::UserRole + 1;
} // namespace

KernelProblemsView::KernelProblemsView(QWidget *parent)
    : QWidget(parent), m_heading(new QLabel), m_list(new QTreeWidget)
{
    setObjectName(QStringLiteral("kernelProblems"));
    m_heading->setTextFormat(Qt::PlainText);
    m_heading->setObjectName(QStringLiteral("kernelProblemsHeading"));
    m_list->setObjectName(QStringLiteral("kernelProblemList"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Kind"), tr("File"), tr("Line"), tr("Message")});
    m_list->header()->setStretchLastSection(true);
    m_list->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_list->setColumnWidth(SeverityColumn, 70);
    m_list->setColumnWidth(FileColumn, 180);
    m_list->setColumnWidth(LineColumn, 50);
    m_list->setToolTip(tr("Click a problem to show its line"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 0);
    layout->setSpacing(2);
    layout->addWidget(m_heading);
    layout->addWidget(m_list, 1);
    const auto activate = [this](QTreeWidgetItem *item) {
        if (item)
            emit problemActivated(item->text(FileColumn), item->data(LineColumn, kLineRole).toInt());
    };
    connect(m_list, &QTreeWidget::itemClicked, this, activate);
    connect(m_list, &QTreeWidget::itemActivated, this, activate);
}

void KernelProblemsView::setProblems(const QList<KernelProblem> &problems, const QString &heading)
{
    m_heading->setText(heading);
    m_list->clear();
    QList<QTreeWidgetItem *> items;
    for (const KernelProblem &p : problems) {
        auto *item = new QTreeWidgetItem;
        const bool error = p.severity == KernelProblem::Severity::Error;
        item->setText(SeverityColumn, error ? tr("error") : tr("warning"));
        item->setForeground(SeverityColumn, error ? QColor(0xb0, 0x00, 0x20) : QColor(0x8a, 0x5a, 0x00));
        item->setText(FileColumn, p.file);
        item->setText(LineColumn, p.line > 0 ? QString::number(p.line) : QString());
        item->setData(LineColumn, kLineRole, p.line);
        item->setText(MessageColumn, p.message);
        item->setToolTip(MessageColumn, plainTextAsHtml(p.message));
        items << item;
    }
    m_list->addTopLevelItems(items);
}

int KernelProblemsView::count() const
{
    return m_list->topLevelItemCount();
}

} // namespace gemmscope
