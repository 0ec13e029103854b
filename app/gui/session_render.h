// Headless rendering of a session: every chart and diagram to PNG, SVG and PDF, without showing
// a window (works with QT_QPA_PLATFORM=offscreen). Used by `gemmscope --render-session`.
#pragma once

#include <QStringList>

namespace gemmscope {

// The files written; on failure `error` says why (and the list holds what was written before).
QStringList renderSession(const QString &sessionFile, const QString &outDir, QString *error);

} // namespace gemmscope
