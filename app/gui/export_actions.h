// Export (Ctrl+E) and the headless render: the view the user clicked last, in its print layout
// (PNG, PDF, SVG), or the session's results as CSV or JSON; and every view at once for
// `gemmscope --render-session`.
#pragma once

#include "window_layout.h"

#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>
#include <functional>

class QMainWindow;
class QWidget;

namespace gemmscope {

class ResultsModel;
class Session;
class ViewRegistry;

// The window's Export (Ctrl+E, "actionExport", added to the window): a dialog that names what the
// picture would show and writes the view clicked last, or the results from anywhere; and every
// view at once for --render-session.
class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(const WindowLayout &views, const Session *session, const ResultsModel *model,
                  ViewRegistry *registry, QMainWindow *window);

    QWidget *target() const;     // the view Ctrl+E writes: the one clicked last, else the runtime chart
    QString dialogTitle() const; // "Export the coalescing frame"
    // Results (.csv/.json) or the target view (the results table's target: its CSV/JSON only).
    bool exportTo(const QString &path, QString *error);
    // Every chart and diagram as png+svg+pdf from its print layout, the sweeps the session holds
    // and the runtime chart's speedup mode, but the pages `leftOut` names ("counters"): the files
    // written (on failure, the reason in `error`).
    QStringList exportEveryView(const QString &directory, QString *error, const QStringList &leftOut = {});
    void showDialog(); // Export… with the target's name, then a warning or a status message

private:
    WindowLayout m_views;
    const Session *m_session;
    const ResultsModel *m_model;
    ViewRegistry *m_registry;
    QMainWindow *m_window;
};

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
