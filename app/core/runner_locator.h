// Where gemmscope-runner is: $GEMMSCOPE_RUNNER, then next to the application binary, then the
// build tree's copy (GEMMSCOPE_RUNNER_BUILD_PATH). When none is there, says why in a sentence.
#pragma once

#include <QString>

namespace gemmscope {

struct RunnerLocation {
    QString path;   // empty when not found
    QString whyNot; // "runner not built" / "GEMMSCOPE_RUNNER names /x, which does not exist"
    bool found() const { return !path.isEmpty(); }
};

RunnerLocation locateRunner();

} // namespace gemmscope
