// Test helper for "is this pane mostly blank?": how far down a scroll area's viewport the lowest
// text or button shown in its contents reaches, measured on widget geometry (not pixels).
#pragma once

#include <QAbstractButton>
#include <QLabel>
#include <QWidget>

#include <algorithm>

namespace gemmscope::test {

inline int lowestShown(const QWidget *content, const QWidget *viewport)
{
    int bottom = 0;
    for (const QWidget *w : content->findChildren<QWidget *>()) {
        const auto *label = qobject_cast<const QLabel *>(w);
        if (w->isVisible() &&
            ((label && !label->text().isEmpty()) || qobject_cast<const QAbstractButton *>(w)))
            bottom = std::max(bottom, w->mapTo(viewport, QPoint(0, w->height())).y());
    }
    return bottom;
}

} // namespace gemmscope::test
