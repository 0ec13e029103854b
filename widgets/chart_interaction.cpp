#include "chart_interaction.h"

#include "plain_text.h"

#include <QContextMenuEvent>
#include <QEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <QWidget>

namespace gemmscope {

namespace {

constexpr double kClickSlopPx = 4; // a press that moved further became a pan, not a click

QList<std::function<void(QMenu &, QWidget *)>> &commonEntries()
{
    static QList<std::function<void(QMenu &, QWidget *)>> entries;
    return entries;
}

} // namespace

ChartInteraction::ChartInteraction(QWidget *surface, HitTest hitTest)
    : QObject(surface), m_surface(surface), m_hitTest(std::move(hitTest))
{
    surface->setMouseTracking(true);
    surface->setContextMenuPolicy(Qt::DefaultContextMenu);
    surface->installEventFilter(this);
}

void ChartInteraction::addCommonMenuEntries(const std::function<void(QMenu &, QWidget *)> &adder)
{
    commonEntries().append(adder);
}

void ChartInteraction::populateMenu(QMenu &menu, const QPointF &pixel) const
{
    if (m_menuBuilder)
        m_menuBuilder(menu, pixel);
    if (!commonEntries().isEmpty() && !menu.isEmpty())
        menu.addSeparator();
    for (const auto &adder : commonEntries())
        adder(menu, m_surface);
}

bool ChartInteraction::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_surface)
        return false;
    switch (event->type()) {
    case QEvent::MouseMove: {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        const Hit hit = hitAt(mouse->position());
        if (hit.tooltip.isEmpty())
            QToolTip::hideText();
        else
            // Plain text, escaped: a run id or GPU name from a crafted file is shown as written,
            // never rendered as markup.
            QToolTip::showText(mouse->globalPosition().toPoint(), plainTextAsHtml(hit.tooltip), m_surface);
        if (hit.id != m_hoverId) {
            m_hoverId = hit.id;
            emit hovered(hit.id);
        }
        break;
    }
    case QEvent::Leave:
        QToolTip::hideText();
        if (!m_hoverId.isEmpty()) {
            m_hoverId.clear();
            emit hovered(QString());
        }
        break;
    case QEvent::ToolTip:
        return true; // mouseMove shows the tooltip; Qt's own would show the widget's static one
    case QEvent::MouseButtonPress: {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        m_pressed = mouse->button() == Qt::LeftButton;
        m_pressPos = mouse->position();
        break;
    }
    case QEvent::MouseButtonRelease: {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        if (mouse->button() != Qt::LeftButton || !m_pressed)
            break;
        m_pressed = false;
        if (QLineF(m_pressPos, mouse->position()).length() > kClickSlopPx)
            break;
        const QString id = hitAt(mouse->position()).id;
        if (!id.isEmpty())
            emit clicked(id);
        break;
    }
    case QEvent::ContextMenu: {
        const auto *menuEvent = static_cast<QContextMenuEvent *>(event);
        QMenu menu(m_surface);
        populateMenu(menu, menuEvent->pos());
        if (!menu.isEmpty())
            menu.exec(menuEvent->globalPos());
        return true;
    }
    default:
        break;
    }
    return false;
}

} // namespace gemmscope
