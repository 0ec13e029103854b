// Headless rendering of a session: every chart and diagram to PNG, SVG and PDF, without showing
// a window (works with QT_QPA_PLATFORM=offscreen). Used by `gemmscope --render-session`.
// Each page shows the run it names: the Kernel diagrams a kernel the model draws (never a
// library's title over another kernel's picture), the counters page a run with counters. A page
// with nothing true to show is not written, and a sentence says why.
#pragma once

#include <QStringList>

namespace gemmscope {

// The files written; on failure `error` says why (and the list holds what was written before).
// `skipped` gets one sentence per page left out ("mapping: ...").
QStringList renderSession(const QString &sessionFile, const QString &outDir, QString *error,
                          QStringList *skipped = nullptr);

} // namespace gemmscope
