// Whether a measured value agrees with what an analytic model expects of it: one rule for every
// table that marks agreement (the access table's sectors and wavefronts, the against-cuBLAS
// table's L2 traffic), so that "agrees" means the same in each.
#pragma once

#include <cmath>

namespace gemmscope {

// The tolerance docs/gpu-verification.md states: the counters were compared with the model at
// +-5 %, and the model's claims hold there.
inline constexpr double kModelAgreementTolerance = 0.05;

// Within kModelAgreementTolerance of the model's value (relative to the model's).
inline bool agreesWithModel(double measured, double model)
{
    return std::abs(measured - model) <= kModelAgreementTolerance * model;
}

} // namespace gemmscope
