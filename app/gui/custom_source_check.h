// The checks the Editor workspace makes while the user types (no compile, no run): the source
// checks (size, binary content, includes) and the parameter block, each as a problem at its line.
// They are custom_stage.h's sourceProblems() and parseCustomStage(); a build without that parser
// (kernels/custom_stage.cpp) gets no check and says so (`available` false).
#pragma once

#include "compile_log_problems.h"
#include "custom_stage.h"

#include <QList>
#include <functional>

namespace gemmscope {

using SourceCheck = std::function<QList<KernelProblem>(const CustomKernelSource &)>;

// The parser's problems of `source`, each attributed to source.fileName; empty function where the
// parser is not built in.
SourceCheck customSourceCheck();

} // namespace gemmscope
