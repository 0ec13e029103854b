// Export (Ctrl+E) and the headless render: the view the user clicked last, in its print layout
// (PNG, PDF, SVG), or the session's results as CSV or JSON; and every view at once for
// `gemmscope --render-session`.
#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <functional>

class QWidget;

namespace gemmscope {

class ResultsModel;
class Session;
class ViewRegistry;

// Writes the results (.csv, .json) or `view` (.png, .pdf, .svg) to `path`; false with the reason.
bool exportResultsOrView(const Session &session, const ResultsModel &model, const ViewRegistry &registry,
                         QWidget *view, const QString &path, QString *error);

// Writes each (name, view) as name.png, name.svg and name.pdf into `directory`; the files written,
// and on failure the reason in `error` (the list holds what was written before).
QStringList exportEach(const ViewRegistry &registry, const QList<QPair<QString, QWidget *>> &views,
                       const QString &directory, QString *error);

// One more picture into `directory` as name.png/.svg/.pdf through `write` (a view in another mode).
bool exportAs(const QString &directory, const QString &name,
              const std::function<std::optional<QString>(const QString &)> &write, QStringList *written,
              QString *error);

} // namespace gemmscope
