#include "memory_instruction_view.h"

#include "empty_state.h"
#include "profile_digest.h"
#include "profile_tables.h"
#include "run_record.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>

namespace gemmscope {

MemoryInstructionView::MemoryInstructionView(QWidget *parent)
    : QWidget(parent),
      m_noProfileText(
          tr("No profile of this preset at this size yet: profile it to read each memory instruction's "
             "sectors and wavefronts per request against the ideal.")),
      m_empty(new EmptyState), m_reference(makeReferenceNote()), m_headline(new QLabel), m_detail(new QLabel),
      m_table(new QTableView), m_model(new MemoryInstructionsModel(this)),
      m_proxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("memoryInstructionView"));
    m_headline->setObjectName(QStringLiteral("memoryHeadline"));
    m_headline->setTextFormat(Qt::PlainText); // stage names and error sentences are data
    m_headline->setWordWrap(true);
    m_detail->setObjectName(QStringLiteral("memoryDetail"));
    m_detail->setTextFormat(Qt::PlainText);
    m_detail->setWordWrap(true);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(MemoryInstructionsModel::SortRole);
    m_table->setObjectName(QStringLiteral("memoryTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showDetail(); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8); // as the Why-not-cuBLAS tab beside it
    layout->addWidget(m_reference);
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_headline);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_detail);
    setProfile(nullptr);
}

void MemoryInstructionView::setReferenceNote(const QString &sentence)
{
    setReferenceNoteText(m_reference, sentence);
}

QString MemoryInstructionView::referenceNote() const
{
    return m_reference->isHidden() ? QString() : m_reference->text();
}

void MemoryInstructionView::setNoProfileText(const QString &sentence)
{
    m_noProfileText = sentence;
    m_empty->setText(sentence);
    if (!m_profile)
        m_headline->setText(sentence);
}

void MemoryInstructionView::setProfile(const protocol::ProfileEvent *profile,
                                       const std::optional<ModelFigures> &model)
{
    setProfileDigest(profile ? digestOf(*profile) : nullptr, model);
}

void MemoryInstructionView::setProfileDigest(std::shared_ptr<const ProfileDigest> profile,
                                             const std::optional<ModelFigures> &model)
{
    if (profile && profile == m_profile && model == m_modelFigures)
        return;
    // Rows point into the digest: the model lets go of them first.
    m_model->setRows({});
    m_profile = std::move(profile);
    m_modelFigures = model;
    // The empty state in the look every empty pane has (empty_state.h); headline() still says it.
    m_empty->setText(m_noProfileText);
    m_empty->setVisible(!m_profile);
    m_headline->setVisible(m_profile != nullptr);
    m_detail->setVisible(m_profile != nullptr);
    if (!m_profile) {
        m_headline->setText(m_noProfileText);
        m_table->hide();
        m_detail->clear();
        return;
    }
    const protocol::ProfileEvent &p = m_profile->event;
    QList<MemoryRow> rows;
    rows.reserve(m_profile->memory.size());
    int excess = 0, judged = 0;
    for (const MemoryInstruction &m : m_profile->memory) {
        rows.append({m, model ? modelFor(m, *model) : std::nullopt});
        excess += m.verdict == MemoryVerdict::Excess;
        judged += m.verdict == MemoryVerdict::Ideal || m.verdict == MemoryVerdict::Excess;
    }
    m_model->setRows(rows);
    QString text;
    if (rows.isEmpty()) {
        text =
            p.instructionsError.isEmpty()
                ? tr("The profile of %1 holds no global or shared memory instruction metrics.").arg(p.stage)
                : tr("No per-instruction memory metrics: %1").arg(p.instructionsError);
    } else {
        text = tr("%1 memory instructions of %2 at %3 on %4: %5 at their ideal, %6 above it.")
                   .arg(rows.size())
                   .arg(p.stage, squareOrFullSizeText(p.size),
                        p.gpu.name.isEmpty() ? tr("an unnamed GPU") : p.gpu.name)
                   .arg(judged - excess)
                   .arg(excess);
        if (model && !model->whyNone.isEmpty())
            text += tr(" No model column: %1").arg(model->whyNone);
        else if (!model)
            text += tr(" This stage has no access model: the measured figures stand alone.");
        if (!p.instructionsError.isEmpty())
            text += QLatin1Char(' ') + p.instructionsError;
    }
    m_headline->setText(text);
    m_table->setVisible(!rows.isEmpty());
    m_table->setColumnHidden(MemoryInstructionsModel::Model, !model || !model->whyNone.isEmpty());
    // The worst first: the rows that move the most sectors (wavefronts) over their ideal.
    m_table->sortByColumn(MemoryInstructionsModel::Verdict, Qt::DescendingOrder);
    m_table->resizeColumnsToContents();
    if (!rows.isEmpty())
        selectRow(0);
    else
        m_detail->clear();
}

QString MemoryInstructionView::headline() const
{
    return m_headline->text();
}

QString MemoryInstructionView::detailText() const
{
    return m_detail->text();
}

int MemoryInstructionView::rowCount() const
{
    return m_proxy->rowCount();
}

const MemoryRow *MemoryInstructionView::rowAt(int viewRow) const
{
    if (viewRow < 0 || viewRow >= m_proxy->rowCount())
        return nullptr;
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(viewRow, 0));
    return source.isValid() ? &m_model->rows()[source.row()] : nullptr;
}

void MemoryInstructionView::selectRow(int viewRow)
{
    m_table->selectRow(viewRow);
    m_table->setCurrentIndex(m_proxy->index(viewRow, 0));
    showDetail();
}

void MemoryInstructionView::showDetail()
{
    const MemoryRow *row = rowAt(m_table->currentIndex().row());
    if (!row) {
        m_detail->clear();
        return;
    }
    const MemoryInstruction &m = row->measured;
    const protocol::ProfileInstruction &i = *m.instruction;
    QString text = QStringLiteral("%1 (%2%3): %4. %5")
                       .arg(i.sass.isEmpty() ? m.kindText() : i.sass, m.kindText(),
                            i.line > 0 ? QStringLiteral(", %1:%2").arg(i.file).arg(i.line) : QString(),
                            m.verdictText, m.reason);
    if (m.excess() > 0)
        text += tr(" %1 %2 over the ideal in the launch.")
                    .arg(QLocale().toString(m.excess(), 'f', 0),
                         m.space == MemorySpace::Global ? tr("sectors") : tr("wavefronts"));
    if (row->model)
        text += tr(" Model: %1 per request (%2)%3.")
                    .arg(QString::number(row->model->perRequest, 'f', 1), row->model->what,
                         m.perRequest && std::abs(*m.perRequest - row->model->perRequest) >
                                             0.05 * row->model->perRequest
                             ? tr(", measured %1: they differ").arg(QString::number(*m.perRequest, 'f', 1))
                             : QString());
    m_detail->setText(text);
    emit instructionSelected(m.space, m.direction, m.operand);
}

} // namespace gemmscope
