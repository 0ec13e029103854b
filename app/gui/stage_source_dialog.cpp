#include "stage_source_dialog.h"

#include "plain_text.h"
#include "stage_catalog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace gemmscope {

StageSourceDialog::StageSourceDialog(QWidget *parent) : QDialog(parent), m_list(new QListWidget)
{
    setWindowTitle(tr("New Kernel from a Stage"));
    setObjectName(QStringLiteral("stageSourceDialog"));
    auto *intro =
        new QLabel(tr("The stage's source is copied into a new kernel with a parameter block written "
                      "from its parameters; the headers it includes open read-only beside it."));
    intro->setWordWrap(true);
    m_list->setObjectName(QStringLiteral("stageSourceList"));
    for (const StageInfo &stage : stages()) {
        if (stage.isLibrary || stage.isCustom || stage.sourceFile.empty())
            continue;
        auto *item = new QListWidgetItem(QStringLiteral("%1 — %2 (%3)")
                                             .arg(QString::fromStdString(stage.key),
                                                  QString::fromStdString(stage.title),
                                                  QString::fromStdString(stage.sourceFile)));
        item->setData(Qt::UserRole, QString::fromStdString(stage.key));
        item->setToolTip(plainTextAsHtml(QString::fromStdString(stage.summary)));
        m_list->addItem(item);
    }
    m_list->setCurrentRow(0);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Copy"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);
    resize(560, 420);
}

QString StageSourceDialog::chosenKey() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

} // namespace gemmscope
