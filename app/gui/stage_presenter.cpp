#include "stage_presenter.h"

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

StagePresenter::StagePresenter(const Views &views, QObject *parent) : QObject(parent), m_views(views) {}

void StagePresenter::present(const RunConfig &config)
{
    m_presenting = true;
    const auto done = qScopeGuard([this] { m_presenting = false; });
    const StageInfo &stage = stageInfo(config.stage);
    if (violations(config.stage, config.params, config.size).empty())
        m_views.roofline->setPredicted(config.stage, config.params, config.size);
    else
        m_views.roofline->clearPredicted();
    m_views.mappingText->setConfig(config);
    m_views.source->setStage(config.stage); // every stage has something to say, cuBLAS included
    const KernelShapeResult shape = kernelShape(config.stage, config.params);
    // What the diagrams are of, for their print titles.
    const QString caption = QStringLiteral("%1, %2").arg(QString::fromStdString(stage.title),
                                                         QString::fromStdString(formatParams(config.params)));
    m_views.tileMap->setCaption(caption);
    m_views.coalescing->setCaption(caption);
    m_views.bankConflicts->setCaption(caption);
    m_views.coalescing->setNote(QString::fromStdString(stageNotes(config.stage).coalescingNote));
    if (shape.shape) {
        m_views.tileMap->setShape(*shape.shape);
        m_views.mappingStack->setCurrentWidget(m_views.tileMap);
        // The access views draw one interior block, the same at any size the tiles divide.
        AccessContext context;
        context.size = roundedUpToTiles(*shape.shape, config.size);
        m_views.coalescing->setShape(*shape.shape, context);
        m_views.bankConflicts->setStage(*shape.shape, context, 0);
        m_views.bankConflicts->setNote(QString());
        if (stageNotes(config.stage).bankPaddingDemo)
            presentBankDemo(config, *shape.shape, context);
    } else {
        m_views.mappingStack->setCurrentWidget(m_views.mappingText);
    }
    enableAccessTabs(config, shape.shape.has_value());
}

void StagePresenter::presentBankDemo(const RunConfig &config, const KernelShape &shape,
                                     const AccessContext &context)
{
    // The guide's point, next to this kernel's own accesses: its reads are conflict-free padded or
    // not, so show the column read the guide's +1 padding is for.
    const int tile = config.params.count("TILE") ? config.params.at("TILE") : 32;
    std::vector<SharedAccess> accesses = sharedAccesses(shape, context, 0);
    for (int pad : {0, 1}) {
        SharedAccess demo = columnAccess(tile, pad);
        demo.label =
            pad == 0 ? tr("the guide's column read tile[tx][0], unpadded (not in this kernel)").toStdString()
                     : tr("the same column read with the guide's +1 padding").toStdString();
        accesses.push_back(demo);
    }
    m_views.bankConflicts->setAccesses(accesses);
    // Either of the guide's two reads shows both, one above the other.
    m_views.bankConflicts->setComparePair(int(accesses.size()) - 2, int(accesses.size()) - 1);
    m_views.bankConflicts->setNote(
        tr("This kernel reads tileA[ty][k] (one word for the whole row of lanes: a broadcast) and "
           "tileB[k][tx] "
           "(along a row): conflict-free with or without padding. The +1 padding of the guide's variant is "
           "for "
           "a column read, tile[tx][k]: unpadded, lanes %1 words apart all hit one bank (%2-way); padded, "
           "every lane has its own bank. The last two entries of the list show both, one above the other.")
            .arg(tile)
            .arg(std::min(tile, 32)));
}

void StagePresenter::enableAccessTabs(const RunConfig &config, bool modelled)
{
    // cuBLAS and refused settings have no modelled accesses: only the tile map tab explains why.
    // The Source tab stays where it is: it shows the stage's file even for refused parameters.
    QTabWidget *tabs = m_views.kernelTabs;
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
