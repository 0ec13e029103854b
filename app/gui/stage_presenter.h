// Shows the configured stage in the model-driven views the moment the panel changes, before
// anything runs: the roofline's predicted point, the tile map, the coalescing and bank diagrams,
// the source, and what the catalog says about the stage (its coalescing note, the guide's padding
// demo). Tabs whose diagram has no model for the stage (cuBLAS, refused parameters) are turned off
// with the reason.
#pragma once

#include "access_model.h"
#include "run_request.h"

#include <QObject>

class QStackedWidget;
class QTabWidget;

namespace gemmscope {

class BankConflictView;
class CoalescingView;
class ModelSummaryView;
class RooflineChart;
class StageSourceView;
class TileMapView;

class StagePresenter : public QObject {
    Q_OBJECT
public:
    struct Views {
        RooflineChart *roofline;
        QStackedWidget *mappingStack; // the tile map, or the summary where none can be drawn
        TileMapView *tileMap;
        ModelSummaryView *mappingText;
        CoalescingView *coalescing;
        BankConflictView *bankConflicts;
        StageSourceView *source;
        QTabWidget *kernelTabs; // the tabs of the coalescing and bank views are turned on and off
    };
    StagePresenter(const Views &views, QObject *parent = nullptr);

    void present(const RunConfig &config);
    // True while present() runs: the Source tab opens on the stage's own file then, instead of
    // following the coalescing view's instruction.
    bool presenting() const { return m_presenting; }

private:
    void presentBankDemo(const RunConfig &config, const KernelShape &shape, const AccessContext &context);
    void enableAccessTabs(const RunConfig &config, bool modelled);

    Views m_views;
    bool m_presenting = false;
};

} // namespace gemmscope
