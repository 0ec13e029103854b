// Where the runner keeps its CUBIN and ceilings caches: --cache-dir, else $GEMMSCOPE_CACHE_DIR,
// else QStandardPaths::CacheLocation + "/gemmscope".
#pragma once

#include <QString>

namespace gemmscope::runner {

QString resolveCacheDir(const QString &commandLineDir = {});

} // namespace gemmscope::runner
