// The one interaction layer every chart and diagram shares: hit-testing through
// a callback, tooltips through mouseMove + QToolTip (QCustomPlot 2.1 has no tooltip API), a click
// that is not a drag, and a context menu whose common entries (export, maximise) are the same in
// every view. Installed as an event filter on the surface that paints (a QCustomPlot or a canvas),
// so the surface keeps its own behaviour (QCustomPlot's drag and zoom).
#pragma once

#include <QObject>
#include <QPointF>
#include <QString>
#include <functional>

class QMenu;
class QWidget;

namespace gemmscope {

class ChartInteraction : public QObject {
    Q_OBJECT
public:
    // What lies under a pixel of the surface: an id (a run, a thread; empty for none) and the
    // tooltip to show there (empty: no tooltip).
    struct Hit {
        QString id;
        QString tooltip;
    };
    using HitTest = std::function<Hit(const QPointF &pixel)>;
    // Adds the view's own entries to its context menu, before the common ones.
    using MenuBuilder = std::function<void(QMenu &menu, const QPointF &pixel)>;

    ChartInteraction(QWidget *surface, HitTest hitTest);

    void setMenuBuilder(MenuBuilder builder) { m_menuBuilder = std::move(builder); }
    QWidget *surface() const { return m_surface; }
    Hit hitAt(const QPointF &pixel) const { return m_hitTest ? m_hitTest(pixel) : Hit{}; }

    // The common entries, added to every view's context menu by the window (export, maximise):
    // each is called with the menu after the view's own entries.
    static void addCommonMenuEntries(const std::function<void(QMenu &menu, QWidget *surface)> &adder);

    // Shows the context menu at a surface position (what a right click does; tests call it).
    void populateMenu(QMenu &menu, const QPointF &pixel) const;

signals:
    void clicked(const QString &id); // a left click (not a drag) on something with an id
    void hovered(const QString &id); // the id under the mouse changed (empty: nothing)

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_surface;
    HitTest m_hitTest;
    MenuBuilder m_menuBuilder;
    QPointF m_pressPos;
    QString m_hoverId;
    bool m_pressed = false;
};

} // namespace gemmscope
