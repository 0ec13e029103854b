// Test helper: the Sweep views as the window builds them (app/gui/workspace_views.cpp), each with
// its own SweepController, made before the view and gone after it. A test writes
// `test::ControlledSweepView view(&session);` where it wrote `SweepView view(&session);` before the
// controller moved to app/core; the view's own API is unchanged.
#pragma once

#include "size_sweep_view.h"
#include "sweep_controller.h"
#include "sweep_view.h"

namespace gemmscope::test {

// A base, so that the controller is made before the view (bases are made in order) and goes after it.
struct HeldSweepController {
    SweepController heldControl;
    HeldSweepController(Session *session, SweepKind kind) : heldControl(session, kind) {}
};

template <typename View, SweepKind kind> class Controlled : private HeldSweepController, public View {
public:
    explicit Controlled(Session *session) : HeldSweepController(session, kind), View(&heldControl) {}
};

using ControlledSweepView = Controlled<SweepView, SweepKind::Grid>;
using ControlledSizeSweepView = Controlled<SizeSweepView, SweepKind::Sizes>;

} // namespace gemmscope::test
