#include "stage_presenter.h"

#include "stage_names.h"

#include "bank_conflict_view.h"
#include "coalescing_view.h"
#include "mapping_model.h"
#include "model_summary_view.h"
#include "roofline_chart.h"
#include "stage_notes.h"
#include "stage_source_view.h"
#include "tile_map_view.h"

#include <QScopeGuard>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>

namespace gemmscope {

StagePresenter::StagePresenter(RooflineChart *roofline, const KernelTabs &kernel, QObject *parent)
    : QObject(parent), m_roofline(roofline), m_views(kernel)
{
    // The Source tab follows the Coalescing view's instruction: its line is highlighted.
    connect(m_views.coalescing, &CoalescingView::frameChanged, this, [this] {
        if (m_presenting)
            return; // a new configuration opens the Source tab on the stage's own file
        if (const GlobalAccess *a = m_views.coalescing->currentAccess())
            m_views.source->highlightAccess(a->operand, a->kind);
    });
}

void StagePresenter::present(const RunConfig &config)
{
    m_presenting = true;
    const auto done = qScopeGuard([this] { m_presenting = false; });
    const StageInfo &stage = stageInfo(config.stage);
    if (violations(config.stage, config.params, config.size).empty())
        m_roofline->setPredicted(config.stage, config.params, config.size);
    else
        m_roofline->clearPredicted();
    m_views.mappingText->setConfig(config);
    m_views.source->setStage(config.stage); // every stage has something to say, cuBLAS included
    const KernelShapeResult shape = kernelShape(config.stage, config.params);
    // What the diagrams are of, for their print titles: a preset by its one name (stage_names.h).
    const QString preset = presetTitle(config.presetKey);
    const QString caption =
        QStringLiteral("%1, %2").arg(preset.isEmpty() ? QString::fromStdString(stage.title) : preset,
                                     QString::fromStdString(formatParams(config.params)));
    m_views.tileMap->setCaption(caption);
    m_views.coalescing->setCaption(caption);
    m_views.bankConflicts->setCaption(caption);
    m_views.coalescing->setNote(
        QString::fromStdString(coalescingNote(config.stage, shape.shape ? &*shape.shape : nullptr)));
    if (shape.shape) {
        m_views.tileMap->setShape(*shape.shape);
        m_views.mappingStack->setCurrentWidget(m_views.tileMap);
        // The access views draw one interior block, the same at any size the tiles divide.
        AccessContext context;
        context.size = roundedUpToTiles(*shape.shape, config.size);
        m_views.coalescing->setShape(*shape.shape, context);
        m_views.bankConflicts->setStage(*shape.shape, context, 0);
        m_views.bankConflicts->setNote(QString());
        if (const std::optional<BankPaddingDemo> &demo = stageNotes(config.stage).bankPaddingDemo)
            presentBankDemo(*demo, config, *shape.shape, context);
    } else {
        m_views.mappingStack->setCurrentWidget(m_views.mappingText);
    }
    enableAccessTabs(config, shape.shape.has_value());
}

void StagePresenter::presentBankDemo(const BankPaddingDemo &demo, const RunConfig &config,
                                     const KernelShape &shape, const AccessContext &context)
{
    // The guide's point, next to this kernel's own accesses: its reads are conflict-free padded or
    // not, so show the column read the guide's +1 padding is for.
    const int tile = paramValue(config.params, demo.tileParam, demo.fallbackTile);
    std::vector<SharedAccess> accesses = sharedAccesses(shape, context, 0);
    for (int pad : {0, 1}) {
        SharedAccess read = columnAccess(tile, pad);
        read.label = pad == 0 ? demo.unpaddedLabel : demo.paddedLabel;
        accesses.push_back(read);
    }
    m_views.bankConflicts->setAccesses(accesses);
    // Either of the guide's two reads shows both, one above the other.
    m_views.bankConflicts->setComparePair(int(accesses.size()) - 2, int(accesses.size()) - 1);
    m_views.bankConflicts->setNote(QString::fromStdString(demo.note(tile)));
}

void StagePresenter::enableAccessTabs(const RunConfig &config, bool modelled)
{
    // cuBLAS and refused settings have no modelled accesses: only the tile map tab explains why.
    // The Source tab stays where it is: it shows the stage's file even for refused parameters.
    QTabWidget *tabs = m_views.tabs;
    const StageInfo &stage = stageInfo(config.stage);
    // Qt 6 moves the current tab itself when it is disabled (to the next one: the source); the
    // tile map is the tab that says why there is nothing to draw, so go there first.
    const auto *current = qobject_cast<QScrollArea *>(tabs->currentWidget());
    if (!modelled && current &&
        (current->widget() == m_views.coalescing || current->widget() == m_views.bankConflicts))
        tabs->setCurrentWidget(m_views.mappingStack);
    for (int tab = 0; tab < tabs->count(); ++tab) {
        const auto *scroll = qobject_cast<QScrollArea *>(tabs->widget(tab));
        if (!scroll || (scroll->widget() != m_views.coalescing && scroll->widget() != m_views.bankConflicts))
            continue;
        tabs->setTabEnabled(tab, modelled);
        tabs->setTabToolTip(tab, modelled ? QString()
                                          : tr("Off: %1 has no access model to draw (%2).")
                                                .arg(QString::fromStdString(stage.title),
                                                     stage.isLibrary ? tr("a closed-source library")
                                                                     : tr("its parameters are refused")));
    }
}

} // namespace gemmscope
