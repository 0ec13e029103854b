#include "run_view.h"

#include "plot_export.h"

#include <QWidget>

namespace gemmscope {

QWidget *RunView::viewWidget()
{
    return dynamic_cast<QWidget *>(this);
}

std::optional<QString> RunView::exportTo(const QString &path)
{
    return exportWidget(viewWidget(), path);
}

} // namespace gemmscope
