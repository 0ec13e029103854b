// A job's request as the runner reads it: decoded by app/protocol's codec (the one reading of
// every field; its sentence becomes the protocol_error), then the defaults and clamps the codec
// leaves to the runner because they need the catalog or are the runner's policy.
#pragma once

#include "kernel_timer.h"
#include "requests.h"
#include "runner_error.h"
#include "stage_catalog.h"

#include <QJsonObject>
#include <optional>

namespace gemmscope::runner {

// The typed request of `json`; RunnerError(protocol_error) with the codec's sentence otherwise.
template <typename Request> Request decodeRequest(const QJsonObject &json)
{
    Request request;
    QString error;
    if (!protocol::fromJson(json, request, &error))
        throw RunnerError(ErrorKind::ProtocolError, error);
    return request;
}

// The request's timing with the documented defaults, each value clamped to a range the runner
// can honour (warm-up 0..1000, budget 0..1 h, repetitions 1..100000) rather than refused; an
// unknown regime or a noise criterion out of its range is an invalid_config with its sentence.
TimingOptions timingOptions(const std::optional<protocol::TimingRequest> &timing);

// The request's parameters, or the stage's defaults when it names none.
ParamValues paramsOrDefaults(const StageInfo &stage, const std::optional<ParamValues> &params);

// Whether a job's TF32 inputs are rounded to nearest ("rna", the default for GemmScope's TF32
// stages) rather than truncated ("truncate"); invalid_config for another value, or for a value on
// a stage that is not one of GemmScope's TF32 stages.
bool roundsTf32Inputs(const StageInfo &stage, const QString &rounding);

} // namespace gemmscope::runner
