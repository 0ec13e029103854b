// From a catalog stage and its parameters to an NVRTC program, with the catalog's checks first:
// an invalid configuration is refused with the catalog's sentences before anything compiles.
#pragma once

#include "nvrtc_compiler.h"
#include "stage_catalog.h"

#include <QJsonObject>

namespace gemmscope::runner {

// The stage for a catalog key; RunnerError(invalid_config) naming the known keys otherwise.
const StageInfo &requireStage(const QString &key);
// {"BM":64,...} -> ParamValues; RunnerError(protocol_error) for a value that is not an integer.
ParamValues paramsFromJson(const QJsonObject &params);
QJsonObject paramsToJson(const ParamValues &params);
// RunnerError(invalid_config) joining gemmscope::violations() when there are any, or when the
// architecture is older than the stage needs.
void requireValidConfig(const StageInfo &stage, const ParamValues &params, const ProblemSize &size, int arch);

// `traceOwner` builds the owner-tracing variant (-DGEMMSCOPE_TRACE_OWNER=1): the kernels' store
// macro then writes the storing thread's index instead of the value.
NvrtcProgram stageProgram(const StageInfo &stage, const ParamValues &params, int arch,
                          bool traceOwner = false);

} // namespace gemmscope::runner
