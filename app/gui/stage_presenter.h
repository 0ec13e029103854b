// Shows the configured stage in the model-driven views the moment the panel changes, before
// anything runs: the roofline's predicted point, the tile map, the coalescing and bank diagrams,
// the source, and what kernels/stage_notes.h says about the stage (its coalescing note, the
// guide's padding demo) — the same code for every stage, no stage named. Tabs whose diagram has
// no model for the stage (cuBLAS, refused parameters) are turned off with the reason. Between
// configurations the Source tab follows the coalescing view's instruction.
#pragma once

#include "access_model.h"
#include "run_request.h"
#include "workspace_views.h"

#include <QObject>

namespace gemmscope {

class RooflineChart;
struct BankPaddingDemo;

class StagePresenter : public QObject {
    Q_OBJECT
public:
    // The Kernel workspace's tabs (those of the coalescing and bank views are turned on and off)
    // and the roofline, whose predicted point is the configured stage's.
    StagePresenter(RooflineChart *roofline, const KernelTabs &kernel, QObject *parent = nullptr);

    void present(const RunConfig &config);

private:
    void presentBankDemo(const BankPaddingDemo &demo, const RunConfig &config, const KernelShape &shape,
                         const AccessContext &context);
    void enableAccessTabs(const RunConfig &config, bool modelled);

    RooflineChart *m_roofline;
    KernelTabs m_views;
    // True while present() runs: the Source tab opens on the stage's own file then, instead of
    // following the coalescing view's instruction.
    bool m_presenting = false;
};

} // namespace gemmscope
